import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ContentBody } from '../../../generated/ContentBody';
import type { ContentKind } from '../../../generated/ContentKind';
import type { SiteBody } from '../../../generated/SiteBody';
import { jsonResponse } from '../../../test/api-stub';
import { blogBody, CONTENT_LIST, contentDocument, courseBody, LEARNING } from '../../test/content-fixtures';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

// Each kind's form turns its body into fields and back without losing or
// changing anything: saved untouched, the draft is the body it showed.

const image = { file: 'x/y.svg', alt: 'A picture' };

const site: SiteBody = {
  title: 'Calderbrook Academy',
  footer_text: 'We train practitioners.',
  address: '27 Larkspur Row, Manchester',
  phone_number: '0161 496 0742',
  email_address: 'hello@example.com',
  support_email_address: 'support@example.com',
  models_email_address: 'models@example.com',
  clinic_url: 'https://clinic.example.com',
  logo: { file: 'brand/logo.svg', alt: 'Calderbrook Academy' },
  social_media: { facebook: 'https://facebook.com/x', instagram: '', youtube: '', tiktok: 'https://tiktok.com/@x' },
  footer_logos: [{ title: 'Guild', file: 'partners/guild.svg' }],
  footer_links: { columns: [{ title: 'Courses', links: [{ text: 'Aesthetics', link: '/courses/aesthetics/' }, { text: 'Hair', link: '/courses/hair/' }] }] },
  hero: { heading: 'Train with confidence.', text: 'Small groups.', image: { file: 'brand/hero.svg', alt: 'A face outline' } },
};

const BODIES: [ContentKind, string, ContentBody][] = [
  ['course', 'chemical-peels', courseBody({ slug: 'peels', kit: { name: 'Peel kit', price: 150, worth: 260, note: 'Optional.' }, was_price: 50000, also_in: ['lashes'] })],
  // An in-person course that gives an online course's theory with its bookings.
  ['course', 'dermal-fillers', courseBody({ online_theory: 'anatomy-and-physiology-online' })],
  ['course', 'foundation-anti-wrinkle', courseBody({ entry_requirements: true, entry_online_course: 'anatomy-and-physiology-online' })],
  // A course that asks its students for forms and documents before training, due ten days before.
  ['course', 'anti-wrinkle-and-dermal-fillers', courseBody({
    readiness: { forms: ['consultation', 'medical'], documents: [{ title: 'Photo ID', description: 'A passport.' }, { title: 'Level 3 certificate', description: '' }], due_days_before: 10 },
  })],
  // An online course keeps its lessons and quizzes, every part of them, as they were.
  ['course', 'peels-online', courseBody({ online: true, learning: LEARNING })],
  ['section', 'aesthetics', { slug: 'aesthetics', title: 'Aesthetics Courses', summary: 'Skin.', intro: 'Build a menu.', image, position: 2 }],
  ['page', 'about', { title: 'About us', description: 'Who we are', body: '## Us\nSince 2014.' }],
  ['blog', 'balayage', blogBody()],
  ['team', 'olivia', { name: 'Olivia Brennan', role: 'Founder', bio: 'Opened a salon at 23.', image, position: 0 }],
  ['job', 'trainer', { id: 'trainer', title: 'Trainer', location: 'Manchester', kind: 'Full-time', summary: 'Teach.', description: 'We are hiring.', position: 1 }],
  ['pathway', '4', { level: 4, title: 'Level 4 Certificate', summary: 'Foundations.', duration: '4 months', units: ['Skin science', 'Peels'], price: 250000 }],
  ['site', 'site', site],
];

describe('every kind’s form', () => {
  it.each(BODIES)('saves a %s untouched as the body it showed', async (kind, key, body) => {
    const path = `/api/admin/content/${kind}/${key}`;
    const api = renderAdmin(`/content/${kind}/${key}/`, staffMember('editor'), {
      'GET /api/admin/content': () => jsonResponse(200, { documents: CONTENT_LIST }),
      'POST /api/admin/content/markdown': () => jsonResponse(200, { html: '' }),
      [`GET ${path}`]: () => jsonResponse(200, contentDocument(body, { kind, key, title: 'Its title' })),
      [`PUT ${path}/draft`]: () => jsonResponse(200, { draft_saved_at: '2026-11-21T09:30:00Z' }),
    });
    // The course's sections come with the list.
    if (kind === 'course') await screen.findByRole('checkbox', { name: 'Lash Courses' }, { timeout: 5000 });
    await userEvent.click(await screen.findByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(/^Draft saved/)).toBeInTheDocument();
    expect(callsTo(api, `PUT ${path}/draft`)[0]?.body).toEqual({ body });
  });
});

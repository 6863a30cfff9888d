import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, type Answer } from '../../../test/api-stub';
import { blogBody, CONTENT_LIST, contentDocument, courseBody } from '../../test/content-fixtures';
import { staffMember } from '../../test/fixtures';
import { address, callsTo, renderAdmin } from '../../test/render-admin';

const COURSE_PATH = '/api/admin/content/course/chemical-peels';
const markdown: Answer = () => jsonResponse(200, { html: '<p>Preview</p>' });

function renderDocument(path: string, document: unknown, answers: Record<string, Answer> = {}) {
  return renderAdmin(path, staffMember('editor'), {
    'GET /api/admin/content': () => jsonResponse(200, { documents: CONTENT_LIST }),
    'POST /api/admin/content/markdown': markdown,
    [`GET /api/admin${path.replace(/\/$/, '')}`]: () => jsonResponse(200, document),
    ...answers,
  });
}

const withDraft = contentDocument(courseBody(), { draft: courseBody({ price: 39900 }), draft_by: 'Sam Staff', draft_saved_at: '2026-11-21T09:30:00Z' });

describe('publishing, discarding, previewing and going back', () => {
  it('shows the waiting draft in the form, and publishes it after a confirmation', async () => {
    let published = false;
    const api = renderDocument('/content/course/chemical-peels/', withDraft, {
      [`GET ${COURSE_PATH}`]: () => jsonResponse(200, published ? contentDocument(courseBody({ price: 39900 }), { version: 4 }) : withDraft),
      [`POST ${COURSE_PATH}/publish`]: () => {
        published = true;
        return jsonResponse(200, { version: 4, path: '/courses/chemical-peels/' });
      },
    });
    expect(await screen.findByLabelText(/^Price/)).toHaveValue('399.00');
    expect(screen.getByText(/saved by Sam Staff/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const step = screen.getByRole('group', { name: /Publish the saved draft/ });
    expect(step).toHaveFocus();
    expect(callsTo(api, `POST ${COURSE_PATH}/publish`)).toHaveLength(0);
    await userEvent.click(within(step).getByRole('button', { name: 'Yes, publish it' }));
    expect(await screen.findByText('Published as version 4.')).toBeInTheDocument();
    expect(callsTo(api, `POST ${COURSE_PATH}/publish`)[0]?.body).toEqual({});
    expect(screen.getByRole('link', { name: 'View the live page' })).toHaveAttribute('href', '/courses/chemical-peels/');
    expect(await screen.findByText('No draft is waiting: the form shows the live version. Save a draft to publish it.')).toBeInTheDocument();
  });

  it('discards the draft after a confirmation', async () => {
    const api = renderDocument('/content/course/chemical-peels/', withDraft, { [`DELETE ${COURSE_PATH}/draft`]: () => new Response(null, { status: 204 }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Discard draft' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, discard the draft' }));
    expect(await screen.findByText('Draft discarded: the form shows the live version.')).toBeInTheDocument();
    expect(callsTo(api, `DELETE ${COURSE_PATH}/draft`)).toHaveLength(1);
  });

  it('goes back to an earlier version, sending its number, but never to the live one', async () => {
    const api = renderDocument('/content/course/chemical-peels/', contentDocument(courseBody()), { [`POST ${COURSE_PATH}/revert`]: () => jsonResponse(200, { version: 4 }) });
    await screen.findByRole('heading', { level: 2, name: 'History' });
    expect(screen.queryByRole('button', { name: 'Revert to version 3' })).not.toBeInTheDocument();
    expect(screen.getByText('Loaded from the content pack, 1 Nov 2026, 08:00')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Revert to version 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, make version 2 live' }));
    expect(await screen.findByText('Version 2 is live again, as version 4.')).toBeInTheDocument();
    expect(callsTo(api, `POST ${COURSE_PATH}/revert`)[0]?.body).toEqual({ version: 2 });
  });

  it('takes a course off the site after a confirmation, and says so until it is published again', async () => {
    let withdrawn = false;
    const offSite = contentDocument(courseBody(), {
      version: 4,
      withdrawn: true,
      withdrawable: false,
      revisions: [{ version: 4, action: 'withdraw', by: 'Priya editor', at: '2026-11-21T10:00:00Z' }, ...contentDocument(courseBody()).revisions],
    });
    const api = renderDocument('/content/course/chemical-peels/', contentDocument(courseBody()), {
      [`GET ${COURSE_PATH}`]: () => jsonResponse(200, withdrawn ? offSite : contentDocument(courseBody())),
      [`POST ${COURSE_PATH}/withdraw`]: () => {
        withdrawn = true;
        return jsonResponse(200, { version: 4, path: '/courses/chemical-peels/' });
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Take off the site' }));
    expect(callsTo(api, `POST ${COURSE_PATH}/withdraw`)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Yes, take it off the site' }));
    expect(await screen.findByText(/Publish a draft, or go back to a version, to put it back\./)).toBeInTheDocument();
    expect(callsTo(api, `POST ${COURSE_PATH}/withdraw`)).toHaveLength(1);
    expect(screen.getByText('Taken off the site by Priya editor, 21 Nov 2026, 10:00')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take off the site' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revert to version 3' })).toBeInTheDocument();
  });

  it('offers no way to take off what the site cannot do without', async () => {
    const about = { title: 'About us', description: 'Who we are', body: 'We teach.' };
    renderDocument('/content/page/about/', contentDocument(about, { kind: 'page', key: 'about', title: 'About us', path: '/about/', withdrawable: false }));
    await screen.findByRole('heading', { level: 2, name: 'History' });
    expect(screen.queryByRole('button', { name: 'Take off the site' })).not.toBeInTheDocument();
  });

  it('shows the preview in a sandboxed frame of its own, loaded again on request', async () => {
    renderDocument('/content/course/chemical-peels/', withDraft);
    await userEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    const frame = screen.getByTitle('Preview of Chemical Peels');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', `${COURSE_PATH}/preview`);
    // Scripts, but never the back office's origin, and so never its staff cookie.
    expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-forms');
    // No clicks until its page has loaded, and with it the script that sends its links here.
    expect(frame).toHaveAttribute('inert');
    fireEvent.load(frame);
    expect(frame).not.toHaveAttribute('inert');
    await userEvent.click(screen.getByRole('button', { name: 'Refresh preview' }));
    expect(screen.getByTitle('Preview of Chemical Peels')).not.toBe(frame);
    expect(screen.getByTitle('Preview of Chemical Peels')).toHaveAttribute('inert');
  });

  it('says when an article is scheduled, and when it is live', async () => {
    const article = (published: string) => contentDocument(blogBody({ published }), { kind: 'blog', key: 'balayage', title: 'Balayage trends', path: '/blog/balayage/' });
    renderDocument('/content/blog/balayage/', article('2099-01-31'));
    expect(await screen.findByText('Scheduled for 31 Jan 2099')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Published on/)).toHaveValue('2099-01-31');
    expect(screen.getByText(/A day after today schedules it/)).toBeInTheDocument();
  });

  it('creates a course, published at once, and opens it', async () => {
    const created = contentDocument(courseBody({ title: 'Lash Lift', description: '' }), { key: 'lash-lift', title: 'Lash Lift' });
    const api = renderDocument('/content/new/course/', null, {
      'POST /api/admin/content/course': () => jsonResponse(201, { kind: 'course', key: 'lash-lift' }),
      'GET /api/admin/content/course/lash-lift': () => jsonResponse(200, created),
      'GET /api/admin/media': () => jsonResponse(200, { media: [], limit: 500, pack: [{ fileName: 'courses/lash-lift.svg', width: 800, height: 600 }] }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'New course' })).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Aesthetics Courses' });
    await userEvent.type(screen.getByLabelText(/^Course id/), 'lash-lift');
    await userEvent.type(screen.getByLabelText(/^Title/), 'Lash Lift');
    await userEvent.selectOptions(screen.getByLabelText(/^Section/), 'aesthetics');
    await userEvent.type(screen.getByLabelText(/^Summary/), 'Lift and tint.');
    await userEvent.click(screen.getByRole('button', { name: 'Choose the image' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search the media library by name' }), 'lash');
    await userEvent.click(await screen.findByRole('button', { name: /courses\/lash-lift\.svg/ }));
    await userEvent.type(screen.getByLabelText(/^Alternative text/), 'Lashes after a lift');
    await userEvent.type(screen.getByLabelText(/^Price/), '120');
    await userEvent.type(screen.getByLabelText(/^Duration/), 'Half a day');
    await userEvent.type(screen.getByLabelText(/^Level/), 'CPD');
    await userEvent.click(screen.getByRole('button', { name: 'Create the course' }));
    await vi.waitFor(() => expect(address()).toBe('/content/course/lash-lift/'));
    const sent = callsTo(api, 'POST /api/admin/content/course')[0]?.body as { key: string; body: Record<string, unknown> };
    expect(sent.key).toBe('lash-lift');
    expect(sent.body).toMatchObject({ title: 'Lash Lift', section: 'aesthetics', image: { file: 'courses/lash-lift.svg', alt: 'Lashes after a lift' }, price: 12000, was_price: null, kit: null, faqs: [], includes: [], position: 0 });
    expect(sent.body).not.toHaveProperty('slug');
  });

  it('says beside the key when one exists already (409)', async () => {
    renderDocument('/content/new/page/', null, { 'POST /api/admin/content/page': () => jsonResponse(409, { error: { code: 'conflict', message: 'There is a page about already.' } }) });
    await userEvent.type(await screen.findByLabelText(/^Address/), 'about');
    await userEvent.type(screen.getByLabelText(/^Title/), 'About');
    await userEvent.type(screen.getByLabelText(/^Description/), 'Who we are');
    await userEvent.click(screen.getByRole('button', { name: 'Create the page' }));
    expect(await screen.findByRole('link', { name: 'Address: There is a page about already.' })).toBeInTheDocument();
  });
});

import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../test/memory-router';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConsentProvider } from '../../features/consent/consent-context';
import { site } from '../../test/fixtures';
import { trackedEvents } from '../../test/tracked-events';
import { SiteFooter } from './site-footer';

describe('SiteFooter', () => {
  it('shows the address, the phone in +44 form, the three addresses, social links and the year', () => {
    render(<MemoryRouter><ConsentProvider><SiteFooter site={site} year={2031} /></ConsentProvider></MemoryRouter>);
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: site.address }).getAttribute('href')).toBe(
      'https://www.google.com/maps/search/?api=1&query=27%20Larkspur%20Row%2C%20Manchester%2C%20M4%206QT',
    );
    expect(within(footer).getByRole('link', { name: '0161 496 0742' }).getAttribute('href')).toBe('tel:+441614960742');
    for (const email of [site.emailAddress, site.supportEmailAddress, site.modelsEmailAddress]) {
      expect(within(footer).getByRole('link', { name: email }).getAttribute('href')).toBe(`mailto:${email}`);
    }
    for (const [name, url] of [['Facebook', site.socialMedia.facebook], ['TikTok', site.socialMedia.tiktok]]) {
      expect(within(footer).getByRole('link', { name: new RegExp(`on ${name}`) }).getAttribute('href')).toBe(url);
    }
    expect(within(footer).getByRole('img', { name: 'Guild of Aesthetic Educators' })).toBeInTheDocument();
    const column = within(footer).getByRole('navigation', { name: 'Courses' });
    expect(within(column).getByRole('link', { name: 'Aesthetics' }).getAttribute('href')).toBe('/courses/aesthetics/');
    expect(within(column).getByRole('link', { name: 'Our clinic' }).getAttribute('href')).toBe('https://clinic.example');
    expect(within(footer).getByText('© 2031 Calderbrook Academy')).toBeInTheDocument();
    expect(within(footer).getByRole('button', { name: 'Cookie settings' })).toBeInTheDocument();
  });

  it('counts a click on an address as the email conversion (§9), and offers the newsletter once hydrated', async () => {
    render(<MemoryRouter><ConsentProvider><SiteFooter site={site} year={2031} /></ConsentProvider></MemoryRouter>);
    const tracked = trackedEvents();
    const link = screen.getByRole('link', { name: site.supportEmailAddress });
    link.addEventListener('click', (event) => event.preventDefault());
    await userEvent.click(link);
    await vi.waitFor(() => expect(tracked.events).toEqual([{ name: 'conversion', params: { conversion_label: 'email' } }]));
    tracked.stop();
    expect(await screen.findByRole('form', { name: 'Newsletter' })).toBeInTheDocument();
  });
});

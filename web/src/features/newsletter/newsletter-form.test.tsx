import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { trackedEvents } from '../../test/tracked-events';
import { NEWSLETTER_CONSENT, NewsletterForm } from './newsletter-form';

describe('NewsletterForm', () => {
  it('asks for an email and consent, sends both, says to confirm by mail and counts the conversion', async () => {
    const api = stubApi({ 'POST /api/newsletter': () => jsonResponse(202, { sent: true }) });
    const tracked = trackedEvents();
    render(<NewsletterForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email is required');
    expect(screen.getByLabelText('Your email')).toHaveFocus();
    await userEvent.type(screen.getByLabelText('Your email'), 'amelia@example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await vi.waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please tick the box to agree to our emails'));
    expect(screen.getByRole('checkbox', { name: NEWSLETTER_CONSENT })).toHaveFocus();
    expect(api.calls).toEqual([]);
    await userEvent.click(screen.getByRole('checkbox', { name: NEWSLETTER_CONSENT }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('status')).toHaveTextContent('open the link we have emailed to amelia@example.org to confirm');
    expect(api.calls).toEqual([{ route: 'POST /api/newsletter', body: { email: 'amelia@example.org', consent: true } }]);
    tracked.stop();
    expect(tracked.events).toEqual([{ name: 'conversion', params: { conversion_label: 'newsletter' } }]);
  });

  it('shows the words the server keeps as the consent given', () => {
    const server = readFileSync(resolve(__dirname, '../../../../crates/enrol-server/src/http/newsletter.rs'), 'utf8');
    expect(server).toContain(`pub const NEWSLETTER_CONSENT: &str = "${NEWSLETTER_CONSENT}";`);
    vi.restoreAllMocks();
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import type { Enquiry } from '../../lib/api-types';
import { enquiry, STAFF_NAMES, staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

// An enquiry's page: staff reply by mail from it, and see every reply
// sent (who, when, to whom, what) with the status the reply moved it to.

const ASKED = enquiry({ kind: 'contact', email: 'jo@example.org', message: 'Do you teach at weekends?' });
const REPLIED: Enquiry = {
  ...ASKED,
  status: 'in_progress',
  replies: [{ at: '2026-11-21T09:30:00Z', staffName: 'Priya staff', to: 'jo@example.org', subject: 'Your enquiry to Calderbrook Academy', text: 'Yes: every other Saturday.' }],
};

function renderPage(first: Enquiry, answers: Parameters<typeof renderAdmin>[2] = {}) {
  let current = first;
  const api = renderAdmin('/enquiries/enq-1/', staffMember('staff'), {
    'GET /api/admin/enquiries/enq-1': () => jsonResponse(200, current),
    'GET /api/admin/staff/names': () => jsonResponse(200, { staff: STAFF_NAMES }),
    'POST /api/admin/enquiries/enq-1/replies': () => {
      current = REPLIED;
      return jsonResponse(201, REPLIED);
    },
    ...answers,
  });
  return api;
}

describe('an enquiry’s page', () => {
  it('mails a reply, then shows it with who sent it and when, and the enquiry taken on', async () => {
    const user = userEvent.setup();
    const api = renderPage(ASKED);
    expect(await screen.findByRole('heading', { level: 1, name: 'Website enquiry from Jo Bloggs' })).toBeInTheDocument();
    expect(screen.getByText('No replies yet.')).toBeInTheDocument();
    expect(screen.getByText(/Mailed to jo@example.org, signed with your name/)).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Your reply/), ' Yes: every other Saturday. ');
    await user.click(screen.getByRole('button', { name: 'Send the reply' }));
    expect(await screen.findByText('Reply sent to jo@example.org.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/enquiries/enq-1/replies')[0]?.body).toEqual({ text: 'Yes: every other Saturday.' });
    const replies = await screen.findByText('Yes: every other Saturday.');
    expect(within(replies.closest('li') as HTMLElement).getByText('Priya staff to jo@example.org, 21 Nov 2026, 09:30')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Your reply/)).toHaveValue('');
    await vi.waitFor(() => expect(screen.getByLabelText(/^Status/)).toHaveValue('in_progress'));
  });

  it('asks for the words before sending', async () => {
    const user = userEvent.setup();
    const api = renderPage(ASKED);
    await user.click(await screen.findByRole('button', { name: 'Send the reply' }));
    expect(await screen.findByRole('link', { name: 'Your reply: Write the reply' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/enquiries/enq-1/replies')).toHaveLength(0);
  });

  it('offers no reply by mail when no email was given', async () => {
    renderPage(enquiry());
    expect(await screen.findByText('No email address was given: call them to reply.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send the reply' })).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { enquiry, STAFF_NAMES, staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

function renderInbox(path = '/enquiries/') {
  return renderAdmin(path, staffMember('staff'), {
    'GET /api/admin/enquiries': () => jsonResponse(200, { enquiries: [enquiry()] }),
    'GET /api/admin/staff/names': () => jsonResponse(200, { staff: STAFF_NAMES }),
    'PUT /api/admin/enquiries/enq-1': () => new Response(null, { status: 204 }),
    'POST /api/admin/enquiries/enq-1/notes': () => new Response(null, { status: 204 }),
  });
}

async function openEnquiry() {
  await userEvent.click(await screen.findByText('Jo Bloggs'));
  return screen.getByRole('group');
}

describe('the enquiries inbox', () => {
  it('filters by status and kind', async () => {
    const api = renderInbox();
    await userEvent.selectOptions(await screen.findByLabelText('Status'), 'New');
    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'Callback request');
    await userEvent.click(screen.getByRole('button', { name: 'Show enquiries' }));
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/enquiries').at(-1)?.url).toBe('/api/admin/enquiries?status=new&kind=callback'));
    expect(screen.getByText('1 enquiry')).toBeInTheDocument();
  });

  it('shows what was sent and the notes kept on it', async () => {
    renderInbox();
    const details = await openEnquiry();
    expect(within(details).getByText('07700 900456')).toBeInTheDocument();
    expect(within(details).getByText('Lip Filler')).toBeInTheDocument();
    expect(within(details).getByText('Left a voicemail.')).toBeInTheDocument();
    expect(within(details).getByText(/Callback request · 20 Nov 2026 · New · No owner/)).toBeInTheDocument();
  });

  it('takes an owner from the staff names and a new status', async () => {
    const api = renderInbox();
    const details = await openEnquiry();
    await within(details).findByRole('option', { name: 'Priya owner' });
    await userEvent.selectOptions(within(details).getByLabelText(/^Status/), 'In progress');
    await userEvent.selectOptions(within(details).getByLabelText('Owner'), 'Priya owner');
    await userEvent.click(within(details).getByRole('button', { name: 'Save' }));
    expect(await within(details).findByText('Saved.')).toBeInTheDocument();
    expect(callsTo(api, 'PUT /api/admin/enquiries/enq-1')[0]?.body).toEqual({ status: 'in_progress', ownerId: 'owner-1' });
    // The list is read again, with what was saved.
    await waitFor(() => expect(callsTo(api, 'GET /api/admin/enquiries')).toHaveLength(2));
  });

  it('adds a note', async () => {
    const api = renderInbox();
    const details = await openEnquiry();
    await userEvent.type(within(details).getByLabelText(/New note/), 'Called back, booking Friday.');
    await userEvent.click(within(details).getByRole('button', { name: 'Add the note' }));
    expect(await within(details).findByText('Note added.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/enquiries/enq-1/notes')[0]?.body).toEqual({ text: 'Called back, booking Friday.' });
  });
});

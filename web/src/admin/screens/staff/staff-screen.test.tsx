import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import type { StaffMember } from '../../lib/api-types';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const member = (overrides: Partial<StaffMember>): StaffMember => ({
  id: 'staff-1',
  email: 'staff@college.example',
  name: 'Priya staff',
  role: 'staff',
  active: true,
  createdAt: '2026-10-01T09:00:00Z',
  lastSignInAt: '2026-11-20T08:00:00Z',
  ...overrides,
});

function renderStaff() {
  let disabled = false;
  return renderAdmin('/staff/', staffMember('owner'), {
    'GET /api/admin/staff': () =>
      jsonResponse(200, {
        staff: [member({ id: 'owner-1', email: 'owner@college.example', name: 'Priya owner', role: 'owner' }), member({ active: !disabled }), member({ id: 'tutor-9', name: 'Sam Lee', role: 'tutor', active: false, lastSignInAt: null })],
      }),
    'POST /api/admin/staff': () => jsonResponse(201, { id: 'staff-2', setupLink: 'https://enrol.example/admin/setup/?token=abc123' }),
    'POST /api/admin/staff/staff-1/disable': () => {
      disabled = true;
      return new Response(null, { status: 204 });
    },
  });
}

describe('managing staff', () => {
  it('lists who can sign in, and as what', async () => {
    renderStaff();
    const table = await screen.findByRole('table', { name: 'Staff' });
    const [, owner, staff, tutor] = within(table).getAllByRole('row');
    expect(within(owner!).getByText('Owner')).toBeInTheDocument();
    // Nobody disables themselves here.
    expect(within(owner!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(staff!).getByRole('button', { name: 'Disable Priya staff…' })).toBeInTheDocument();
    expect(within(tutor!).getByText('Never')).toBeInTheDocument();
    expect(within(tutor!).getByText('Not active')).toBeInTheDocument();
  });

  it('adds someone and shows their set-up link', async () => {
    const api = renderStaff();
    await userEvent.type(await screen.findByLabelText(/^Email/), 'new@college.example');
    await userEvent.type(screen.getByLabelText(/^Name/), 'Ada New');
    await userEvent.selectOptions(screen.getByLabelText(/^Role/), 'Tutor');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(/Ada New is added and emailed their set-up link, which works for 48 hours: https:\/\/enrol.example\/admin\/setup\/\?token=abc123/)).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/staff')[0]?.body).toEqual({ email: 'new@college.example', name: 'Ada New', role: 'tutor' });
  });

  it('disables someone only once confirmed', async () => {
    const api = renderStaff();
    await userEvent.click(await screen.findByRole('button', { name: 'Disable Priya staff…' }));
    expect(screen.getByText('Priya staff is signed out now and can no longer sign in.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/staff/staff-1/disable')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Yes, disable Priya staff' }));
    expect(await screen.findByText('Priya staff is disabled.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/staff/staff-1/disable')).toHaveLength(1);
    // The list is read again: they are no longer active, and there is nothing more to disable.
    const row = screen.getByRole('rowheader', { name: 'Priya staff' }).closest('tr')!;
    await vi.waitFor(() => expect(within(row).getByText('Not active')).toBeInTheDocument());
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
  });
});

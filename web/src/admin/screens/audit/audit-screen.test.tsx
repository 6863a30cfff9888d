import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { auditEntry, staffMember } from '../../test/fixtures';
import { address, callsTo, renderAdmin } from '../../test/render-admin';

function renderAudit(path = '/audit/') {
  return renderAdmin(path, staffMember('owner'), {
    'GET /api/admin/audit': () => jsonResponse(200, { entries: [auditEntry()], next: 41 }),
  });
}

describe('the audit log', () => {
  it('lists who changed what, with the record before and after', async () => {
    renderAudit();
    const table = await screen.findByRole('table', { name: 'Newest entries' });
    expect(within(table).getByText('20 Nov 2026, 10:15')).toBeInTheDocument();
    expect(within(table).getByText('order ord-7')).toBeInTheDocument();
    // In words, with the action's code beside them.
    const action = within(table).getByText('Refund of £50.00').closest('td');
    expect(action).toHaveTextContent('Refund of £50.00refund');
    expect(within(action!).getByText('refund').tagName).toBe('CODE');
    await userEvent.click(within(table).getByText('Before and after'));
    expect(within(table).getByText(/"paid": 40000/)).toBeVisible();
  });

  it('filters by who, which record and when', async () => {
    const api = renderAudit();
    await userEvent.type(await screen.findByLabelText(/Who/), 'staff@college.example');
    await userEvent.type(screen.getByLabelText(/Kind of record/), 'order');
    await userEvent.type(screen.getByLabelText('Record id'), 'ord-7');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-01');
    await userEvent.type(screen.getByLabelText('To'), '2026-11-30');
    await userEvent.click(screen.getByRole('button', { name: 'Show entries' }));
    await vi.waitFor(() =>
      expect(callsTo(api, 'GET /api/admin/audit').at(-1)?.url).toBe('/api/admin/audit?actor=staff%40college.example&entity=order&entityId=ord-7&from=2026-11-01&to=2026-11-30'),
    );
  });

  it('pages to older entries with the answer’s `next`, and a new search starts from the newest', async () => {
    const api = renderAudit('/audit/?entity=order');
    await userEvent.click(await screen.findByRole('link', { name: 'Older' }));
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/audit').at(-1)?.url).toBe('/api/admin/audit?entity=order&before=41'));
    expect(await screen.findByRole('table', { name: 'Older entries' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Newest' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show entries' }));
    await vi.waitFor(() => expect(address()).toBe('/audit/?entity=order'));
  });
});

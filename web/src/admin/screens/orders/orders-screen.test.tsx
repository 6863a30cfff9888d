import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { COURSES, orderRow, staffMember } from '../../test/fixtures';
import { address, callsTo, renderAdmin } from '../../test/render-admin';

function renderOrders(path = '/orders/', next: string | null = null) {
  return renderAdmin(path, staffMember('staff'), {
    'GET /api/admin/orders': () =>
      jsonResponse(200, { orders: [orderRow(), orderRow({ id: 'ord-8', reference: 'B-MPM59', name: 'Ben Carter', status: 'completed', paid: 45000, createdAt: '2026-11-03T14:00:00Z' })], next }),
    'GET /api/admin/courses': () => jsonResponse(200, { courses: COURSES }),
  });
}

describe('finding orders', () => {
  it('lists orders, newest first, with their totals in pounds and their status in words', async () => {
    renderOrders();
    const table = await screen.findByRole('table', { name: 'Orders found' });
    const [, newest, older] = within(table).getAllByRole('row');
    expect(within(newest!).getByRole('link', { name: 'B-MPM59' })).toHaveAttribute('href', '/admin/orders/ord-8/');
    expect(within(newest!).getByText('Paid in full')).toBeInTheDocument();
    expect(within(older!).getByText('£250.00')).toBeInTheDocument();
    expect(within(older!).getByText('Deposit paid')).toBeInTheDocument();
    expect(screen.getByText('2 orders')).toBeInTheDocument();
  });

  it('searches by text, status, course and session date', async () => {
    const api = renderOrders();
    await screen.findByRole('option', { name: 'Botox Foundation' });
    await userEvent.type(screen.getByLabelText('Name, email or reference'), ' amara ');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Deposit paid');
    await userEvent.selectOptions(screen.getByLabelText('Course'), 'Botox Foundation');
    await userEvent.type(screen.getByLabelText('Session date'), '2026-12-15');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/orders').at(-1)?.url).toBe('/api/admin/orders?q=amara&status=deposit&course=botox&date=2026-12-15'));
    expect(address()).toBe('/orders/?q=amara&status=deposit&course=botox&date=2026-12-15');
  });

  it('opens with the search the address holds', async () => {
    const api = renderOrders('/orders/?q=ben&status=completed');
    expect(await screen.findByLabelText<HTMLInputElement>('Name, email or reference')).toHaveValue('ben');
    expect(screen.getByLabelText<HTMLSelectElement>('Status')).toHaveValue('completed');
    expect(callsTo(api, 'GET /api/admin/orders')[0]?.url).toBe('/api/admin/orders?q=ben&status=completed');
  });

  it('goes on to the older orders after the last one shown, keeping the search, and back to the newest', async () => {
    const api = renderOrders('/orders/?status=completed', '2026-11-01T10:00:00Z_ord-7');
    await screen.findByRole('table', { name: 'Orders found' });
    const pages = screen.getByRole('navigation', { name: 'Pages of orders' });
    expect(within(pages).queryByRole('link', { name: 'Newest' })).not.toBeInTheDocument();
    await userEvent.click(within(pages).getByRole('link', { name: 'Older' }));
    await vi.waitFor(() => expect(address()).toBe('/orders/?status=completed&before=2026-11-01T10%3A00%3A00Z_ord-7'));
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/orders').at(-1)?.url).toBe('/api/admin/orders?status=completed&before=2026-11-01T10%3A00%3A00Z_ord-7'));
    expect(await screen.findByRole('table', { name: 'Older orders found' })).toBeInTheDocument();
    // A new search starts from the newest.
    await userEvent.type(screen.getByLabelText('Name, email or reference'), 'ben');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await vi.waitFor(() => expect(address()).toBe('/orders/?status=completed&q=ben'));
  });

  it('has no older page on the last', async () => {
    renderOrders();
    await screen.findByRole('table', { name: 'Orders found' });
    expect(screen.queryByRole('link', { name: 'Older' })).not.toBeInTheDocument();
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { COURSES, staffMember } from '../../test/fixtures';
import { onlineOrderRow } from '../../test/online-fixtures';
import { address, callsTo, renderAdmin } from '../../test/render-admin';

function renderOnlineOrders(path = '/orders/online/', next: string | null = null) {
  return renderAdmin(path, staffMember('staff'), {
    'GET /api/admin/online-orders': () =>
      jsonResponse(200, { orders: [onlineOrderRow(), onlineOrderRow({ id: 'onl-2', reference: 'E-7K3P9', name: '', email: 'guest@example.com', createdAt: '2026-11-05T09:00:00Z', status: 'pending', paid: 0 })], next }),
    'GET /api/admin/courses': () => jsonResponse(200, { courses: COURSES }),
  });
}

describe('finding online orders', () => {
  it('lists them beside bookings, newest first, with what was bought and paid', async () => {
    renderOnlineOrders();
    const table = await screen.findByRole('table', { name: 'Online orders found' });
    const [, newest, older] = within(table).getAllByRole('row');
    expect(within(newest!).getByRole('link', { name: 'E-7K3P9' })).toHaveAttribute('href', '/admin/orders/online/onl-2/');
    expect(within(newest!).getByText('Awaiting payment')).toBeInTheDocument();
    expect(within(older!).getByText('Anatomy and Physiology Online, Hygiene Add-on')).toBeInTheDocument();
    expect(within(older!).getAllByText('£124.00')).toHaveLength(2);
    expect(screen.getByText('2 orders')).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Kinds of order' });
    expect(within(tabs).getByRole('link', { name: 'Online orders' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Bookings' })).toHaveAttribute('href', '/admin/orders/');
  });

  it('searches by text, status and online course, kept in the address', async () => {
    const api = renderOnlineOrders();
    expect(await screen.findByRole('option', { name: 'Aesthetics Theory' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Botox Foundation' }), 'only online courses').not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Reference, email, name or course'), ' e 4hx2m ');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Paid');
    await userEvent.selectOptions(screen.getByLabelText('Course'), 'Aesthetics Theory');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/online-orders').at(-1)?.url).toBe('/api/admin/online-orders?q=e+4hx2m&status=paid&course=theory'));
    expect(address()).toBe('/orders/online/?q=e+4hx2m&status=paid&course=theory');
  });

  it('pages through older orders a hundred at a time, and a new search starts from the newest', async () => {
    const api = renderOnlineOrders('/orders/online/?status=paid', '2026-11-01T10:00:00Z_onl-1');
    await screen.findByRole('table', { name: 'Online orders found' });
    const pages = screen.getByRole('navigation', { name: 'Pages of online orders' });
    expect(within(pages).queryByRole('link', { name: 'Newest' })).not.toBeInTheDocument();
    await userEvent.click(within(pages).getByRole('link', { name: 'Older' }));
    await vi.waitFor(() => expect(address()).toBe('/orders/online/?status=paid&before=2026-11-01T10%3A00%3A00Z_onl-1'));
    await vi.waitFor(() =>
      expect(callsTo(api, 'GET /api/admin/online-orders').at(-1)?.url).toBe('/api/admin/online-orders?status=paid&before=2026-11-01T10%3A00%3A00Z_onl-1'),
    );
    expect(await screen.findByRole('table', { name: 'Older online orders found' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Pages of online orders' })).getByRole('link', { name: 'Newest' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Reference, email, name or course'), 'lee');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await vi.waitFor(() => expect(address()).toBe('/orders/online/?status=paid&q=lee'));
  });

  it('has no older page on the last', async () => {
    renderOnlineOrders();
    await screen.findByRole('table', { name: 'Online orders found' });
    expect(screen.queryByRole('link', { name: 'Older' })).not.toBeInTheDocument();
  });

  it('links each online course to its learners', async () => {
    renderOnlineOrders();
    expect(await screen.findByRole('link', { name: 'Aesthetics Theory' })).toHaveAttribute('href', '/admin/orders/online/learners/theory/');
  });

  it('shows the bookings tab on the bookings list', async () => {
    renderAdmin('/orders/', staffMember('staff'), {
      'GET /api/admin/orders': () => jsonResponse(200, { orders: [] }),
      'GET /api/admin/courses': () => jsonResponse(200, { courses: COURSES }),
    });
    const tabs = await screen.findByRole('navigation', { name: 'Kinds of order' });
    expect(within(tabs).getByRole('link', { name: 'Bookings' })).toHaveAttribute('aria-current', 'page');
  });
});

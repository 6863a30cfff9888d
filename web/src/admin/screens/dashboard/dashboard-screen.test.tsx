import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { session, staffMember } from '../../test/fixtures';
import { renderAdmin } from '../../test/render-admin';

const dashboard = {
  week: { bookings: 4, takings: 180000 },
  month: { bookings: 21, takings: 945050 },
  online: { week: { orders: 1, amount: 9900 }, month: { orders: 12, amount: 148800 } },
  enquiries: { new: 3 },
  upcoming: [session(), session({ id: 'ses-2', courseTitle: 'Lip Filler', date: '2026-12-18', seats: 8, booked: 8, held: 0 })],
  balances: { count: 6, amount: 120000, overdueCount: 1, overdueAmount: 20000 },
};

describe('the dashboard', () => {
  it('shows the week’s and month’s bookings and takings in pounds', async () => {
    renderAdmin('/', staffMember('staff'), { 'GET /api/admin/dashboard': () => jsonResponse(200, dashboard) });
    const week = await screen.findByRole('region', { name: 'This week' });
    expect(within(week).getByText('4')).toBeInTheDocument();
    expect(within(week).getByText('£1,800.00')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'This month' })).getByText('£9,450.50')).toBeInTheDocument();
    const balances = screen.getByRole('region', { name: 'Balances due' });
    expect(within(balances).getByText('6 bookings, £1,200.00')).toBeInTheDocument();
    expect(within(balances).getByText('1 booking, £200.00')).toBeInTheDocument();
  });

  it('shows the e-learning sold this week and month, and the new enquiries with a way to them', async () => {
    renderAdmin('/', staffMember('staff'), { 'GET /api/admin/dashboard': () => jsonResponse(200, dashboard) });
    const week = await screen.findByRole('region', { name: 'This week' });
    expect(within(week).getByText('E-learning sold').nextElementSibling).toHaveTextContent('1 order, £99.00');
    expect(within(screen.getByRole('region', { name: 'This month' })).getByText('12 orders, £1,488.00')).toBeInTheDocument();
    const enquiries = screen.getByRole('region', { name: 'Enquiries' });
    expect(within(enquiries).getByText('New, not yet picked up').nextElementSibling).toHaveTextContent('3');
    expect(within(enquiries).getByRole('link', { name: 'New enquiries' })).toHaveAttribute('href', '/admin/enquiries/?status=new');
  });

  it('shows how full each upcoming session is, in words and on a meter', async () => {
    renderAdmin('/', staffMember('staff'), { 'GET /api/admin/dashboard': () => jsonResponse(200, dashboard) });
    const meter = await screen.findByRole('meter', { name: '12 booked and 2 held of 16 seats' });
    expect(meter).toHaveAttribute('value', '14');
    expect(meter).toHaveAttribute('max', '16');
    expect(screen.getByRole('meter', { name: '8 booked of 8 seats' })).toHaveAttribute('value', '8');
    expect(screen.getByRole('link', { name: 'Botox Foundation' })).toHaveAttribute('href', '/admin/sessions/ses-1/roster/');
    expect(screen.getByText('15 Dec 2026, 10:00–16:00')).toBeInTheDocument();
  });
});

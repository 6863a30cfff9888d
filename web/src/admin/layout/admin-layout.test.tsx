import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/api-stub';
import { COURSES, staffMember } from '../test/fixtures';
import { address, callsTo, forbidden, renderAdmin, signedOut } from '../test/render-admin';

const dashboard = {
  week: { bookings: 4, takings: 180000 },
  month: { bookings: 21, takings: 945000 },
  online: { week: { orders: 0, amount: 0 }, month: { orders: 0, amount: 0 } },
  upcoming: [],
  balances: { count: 0, amount: 0, overdueCount: 0, overdueAmount: 0 },
  enquiries: { new: 0 },
};
const noOrders = () => jsonResponse(200, { orders: [] });
const courses = () => jsonResponse(200, { courses: COURSES });

const navLinks = () => within(screen.getByRole('navigation', { name: 'Back office' })).getAllByRole('link').map((link) => link.textContent);

describe('the signed-in layout', () => {
  it('shows who is signed in, a skip link, and the owner every section', async () => {
    renderAdmin('/', staffMember('owner'), { 'GET /api/admin/dashboard': () => jsonResponse(200, dashboard) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Priya owner')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute('href', '#main');
    expect(navLinks()).toEqual(['Dashboard', 'Sessions', 'Orders', 'Payment plans', 'Codes', 'Upsells', 'Enquiries', 'Feedback', 'Content', 'Media', 'Exports', 'Staff', 'Audit log']);
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  });

  it('hides Staff from the staff role, and refuses its page without asking the server', async () => {
    const api = renderAdmin('/staff/', staffMember('staff'));
    expect(await screen.findByText('You do not have access to this.')).toBeInTheDocument();
    expect(navLinks()).not.toContain('Staff');
    expect(navLinks()).toContain('Audit log');
    expect(callsTo(api, 'GET /api/admin/staff')).toHaveLength(0);
  });

  it('gives a tutor only Sessions and Feedback, and starts them at Sessions', async () => {
    const api = renderAdmin('/', staffMember('tutor'), { 'GET /api/admin/sessions': () => jsonResponse(200, { sessions: [] }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sessions' })).toBeInTheDocument();
    expect(navLinks()).toEqual(['Sessions', 'Feedback']);
    expect(address()).toBe('/sessions/');
    expect(callsTo(api, 'GET /api/admin/dashboard')).toHaveLength(0);
  });

  it('gives an editor only Content, and starts them there; a tutor has no Content', async () => {
    renderAdmin('/', staffMember('editor'), { 'GET /api/admin/content': () => jsonResponse(200, { documents: [] }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Content' })).toBeInTheDocument();
    expect(navLinks()).toEqual(['Content', 'Media']);
    expect(address()).toBe('/content/');
  });

  it('hides Content from a tutor, and refuses its page without asking the server', async () => {
    const api = renderAdmin('/content/', staffMember('tutor'));
    expect(await screen.findByText('You do not have access to this.')).toBeInTheDocument();
    expect(navLinks()).not.toContain('Content');
    expect(callsTo(api, 'GET /api/admin/content')).toHaveLength(0);
  });

  it('says so when the server refuses a screen (403)', async () => {
    renderAdmin('/', staffMember('staff'), { 'GET /api/admin/dashboard': forbidden });
    expect(await screen.findByText('You do not have access to this.')).toBeInTheDocument();
  });

  it('sends a visitor who is not signed in to the sign-in page', async () => {
    renderAdmin('/orders/', null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(address()).toBe('/sign-in/');
  });

  it('goes to sign in when a call answers 401, and back to the screen after', async () => {
    let sessionOver = true;
    renderAdmin('/orders/', staffMember('staff'), {
      'GET /api/admin/orders': () => (sessionOver ? signedOut() : noOrders()),
      'GET /api/admin/courses': courses,
      'POST /api/admin/sign-in': () => {
        sessionOver = false;
        return jsonResponse(200, { staff: staffMember('staff') });
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Email/), 'staff@college.example');
    await userEvent.type(screen.getByLabelText(/Password/), 'a long staff password');
    await userEvent.type(screen.getByLabelText(/Code from your authenticator app/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeInTheDocument();
    expect(address()).toBe('/orders/');
  });

  it('signs out with the server and goes to the sign-in page', async () => {
    const api = renderAdmin('/orders/', staffMember('staff'), {
      'GET /api/admin/orders': noOrders,
      'GET /api/admin/courses': courses,
      'POST /api/admin/sign-out': () => new Response(null, { status: 204 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/sign-out')).toHaveLength(1);
  });

  it('moves the focus to the new screen’s heading after following a link', async () => {
    renderAdmin('/', staffMember('staff'), {
      'GET /api/admin/dashboard': () => jsonResponse(200, dashboard),
      'GET /api/admin/orders': noOrders,
      'GET /api/admin/courses': courses,
    });
    const first = await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    // Not on the first page loaded: the skip link is the first stop there.
    expect(document.activeElement).not.toBe(first);
    await userEvent.click(screen.getByRole('link', { name: 'Orders' }));
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Orders' })));
    expect(document.title).toBe('Orders – Enrol back office');
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, SLOW_DOWN, tooManyRequests, type Answer } from '../../../test/api-stub';
import { staffMember } from '../../test/fixtures';
import { address, callsTo, renderAdmin } from '../../test/render-admin';

const dashboard = {
  week: { bookings: 0, takings: 0 },
  month: { bookings: 0, takings: 0 },
  online: { week: { orders: 0, amount: 0 }, month: { orders: 0, amount: 0 } },
  upcoming: [],
  balances: { count: 0, amount: 0, overdueCount: 0, overdueAmount: 0 },
  enquiries: { new: 0 },
};

function renderSignIn(signIn: Answer) {
  return renderAdmin('/sign-in/', null, {
    'POST /api/admin/sign-in': signIn,
    'GET /api/admin/dashboard': () => jsonResponse(200, dashboard),
  });
}

async function signIn(email: string, password: string, code: string) {
  await userEvent.type(await screen.findByLabelText(/Email/), email);
  await userEvent.type(screen.getByLabelText(/Password/), password);
  await userEvent.type(screen.getByLabelText(/Code from your authenticator app/), code);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('signing in to the back office', () => {
  it('sends the email, password and code in one step, and opens the dashboard', async () => {
    const api = renderSignIn(() => jsonResponse(200, { staff: staffMember('staff') }));
    await signIn(' staff@college.example ', 'correct horse battery', '123 456');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(address()).toBe('/');
    expect(callsTo(api, 'POST /api/admin/sign-in')[0]?.body).toEqual({ email: 'staff@college.example', password: 'correct horse battery', code: '123456' });
  });

  it('takes a recovery code instead of the authenticator’s, as typed', async () => {
    const api = renderSignIn(() => jsonResponse(200, { staff: staffMember('staff') }));
    await signIn('staff@college.example', 'correct horse battery', ' 7k3p-9qxa-m2df-8hrt ');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/sign-in')[0]?.body).toMatchObject({ code: '7k3p-9qxa-m2df-8hrt' });
  });

  it('says one thing whichever was wrong, and keeps what was typed', async () => {
    renderSignIn(() => jsonResponse(401, { error: { code: 'unauthorized', message: 'Something the server said.' } }));
    await signIn('staff@college.example', 'correct horse battery', '000000');
    expect(await screen.findByText('Email, password or code is incorrect.')).toBeInTheDocument();
    expect(screen.queryByText('Something the server said.')).not.toBeInTheDocument();
    expect(screen.getByLabelText<HTMLInputElement>(/Email/).value).toBe('staff@college.example');
    expect(address()).toBe('/sign-in/');
  });

  it('says when to try again after too many attempts (429)', async () => {
    renderSignIn(tooManyRequests);
    await signIn('staff@college.example', 'correct horse battery', '123456');
    expect(await screen.findByText(SLOW_DOWN)).toBeInTheDocument();
  });

  it('checks the fields first, sends nothing, and focuses the error summary', async () => {
    const api = renderSignIn(() => jsonResponse(200, { staff: staffMember('staff') }));
    await signIn('staff@college', 'x', '12');
    const summary = await screen.findByText('There is a problem');
    await vi.waitFor(() => expect(document.activeElement?.contains(summary)).toBe(true));
    expect(screen.getByRole('link', { name: 'Email: Enter a valid email address' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Code from your authenticator app: Enter the 6-digit code from your authenticator app, or a recovery code' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/sign-in')).toHaveLength(0);
    await userEvent.click(screen.getByRole('link', { name: /^Email:/ }));
    expect(document.activeElement).toBe(screen.getByLabelText(/Email/));
  });
});

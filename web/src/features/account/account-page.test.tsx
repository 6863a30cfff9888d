import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { account, accountApi, empty } from '../../test/account-fixtures';
import { signedOut, unconfirmed } from '../../test/auth-fixtures';
import { address } from '../../test/memory-router';
import { renderWithAuth } from '../../test/render-with-auth';
import { ONLINE_COURSES_KEY, SELECTED_COURSES_KEY } from '../../lib/basket-items';
import { inPerson, online } from '../../test/basket-fixtures';
import { AccountPage } from './account-page';

const page = { heading: 'Your account' };

const section = (name: string) => screen.findByRole('region', { name });
const rowsOf = (table: HTMLElement) =>
  within(table).getAllByRole('row').map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));

describe('AccountPage', () => {
  it('says once what a mailed link did, and lets the user leave for another page', async () => {
    const api = accountApi({ 'GET /api/account': () => jsonResponse(200, empty), 'POST /api/auth/sign-out': () => jsonResponse(200, signedOut) });
    const notice = 'Your email address is confirmed, and you are signed in.';
    // Rendered outside any route, as the page stays shown while the next page's data loads.
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, { pathname: '/account/', state: { accountNotice: notice } });
    expect(screen.getByText(notice).getAttribute('role')).toBe('status');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await vi.waitFor(() => expect(address()).toBe('/'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(address()).toBe('/');
    expect(api.routes()).toContain('POST /api/auth/sign-out');
  });

  it('says it is checking while the session loads', () => {
    stubApi({ 'GET /api/auth/session': () => new Promise(() => {}) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    expect(screen.getByRole('heading', { level: 1, name: 'Your account' })).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe('Checking whether you are signed in...');
  });

  it('asks a visitor to sign in, and to come back here afterwards', async () => {
    const api = stubApi({ 'GET /api/auth/session': () => jsonResponse(200, signedOut) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    const link = await screen.findByRole('link', { name: 'Sign in' });
    expect(link.getAttribute('href')).toBe('/sign-in/?next=/account/');
    expect(screen.getByText('Sign in to see your bookings, payments and online courses.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/sign-up/');
    expect(api.routes()).toEqual(['GET /api/auth/session']);
  });

  it('comes back to the same place in the account area', async () => {
    stubApi({ 'GET /api/auth/session': () => jsonResponse(200, signedOut) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/bookings/');
    expect((await screen.findByRole('link', { name: 'Sign in' })).getAttribute('href')).toBe('/sign-in/?next=/account/bookings/');
  });

  it('shows the user, their bookings, payments and online courses', async () => {
    let answer: (response: Response) => void = () => {};
    accountApi({ 'GET /api/account': () => new Promise((resolve) => (answer = resolve)) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/bookings/');
    expect(await screen.findByText('Amara Okafor')).toBeInTheDocument();
    expect(screen.getByText('amara@example.com')).toBeInTheDocument();
    expect((await screen.findByRole('status')).textContent).toBe('Loading your bookings...');
    await act(async () => answer(jsonResponse(200, account)));

    const bookings = await screen.findByRole('region', { name: 'Bookings' });
    expect(screen.getByRole('link', { name: 'Bookings' }).getAttribute('aria-current')).toBe('page');
    const tables = await within(bookings).findAllByRole('table');
    expect(tables.map((table) => table.querySelector('caption')!.textContent)).toEqual([
      'Booking B-Z20KM, made 2 Nov 2026 Booking fee paid',
      'Booking B-MPM59, made 1 Oct 2026 Paid in full',
      'Booking B-7K3P9, made 1 Sep 2026 Awaiting payment',
      'Booking B-4HX2M, made 1 Aug 2026 Payment failed',
    ]);
    expect(rowsOf(tables[0]!)).toEqual([
      ['Course', 'Date', 'Price'],
      ['Microneedling Course With the Microneedling starter kit', 'Tuesday 12th January · On site', '£890.00'],
      ['Aesthetic Complications', 'Date to be arranged', '£140.00'],
      ['Total', '£1,030.00'],
      ['Paid', '£200.00'],
      ['Balance due by Tuesday 29th December', '£830.00'],
    ]);
    expect(within(tables[0]!).getByRole('link', { name: 'Microneedling Course' }).getAttribute('href')).toBe('/courses/aesthetics/microneedling/');

    await userEvent.click(screen.getByRole('link', { name: 'Payments' }));
    const payments = await within(await section('Payments')).findByRole('table');
    expect(rowsOf(payments)).toEqual([
      ['Date', 'Method', 'Receipt', 'Amount'],
      ['2 Nov 2026', 'Card', 'Receipt RCT-000003', '£200.00'],
      ['1 Oct 2026', 'Clearpay', 'Receipt RCT-000002Credit note CRN-000001: £50.00 refunded', '£295.00'],
      ['14 Jul 2026', 'Online payment', 'None issued', '£49.99'],
    ]);
    expect(within(payments).getByRole('link', { name: 'Receipt RCT-000002' }).getAttribute('href')).toBe('/api/account/receipts/RCT-000002');
    expect(within(payments).getByRole('link', { name: 'Credit note CRN-000001: £50.00 refunded' }).getAttribute('href')).toBe(
      '/api/account/receipts/CRN-000001',
    );
    await userEvent.click(screen.getByRole('link', { name: 'Online courses' }));
    const courses = await section('Online courses');
    expect((await within(courses).findAllByRole('heading', { level: 3 })).map((heading) => heading.textContent)).toEqual([
      'Skin Science Online Completed',
      'Lash Lift Online',
      'Brow Lamination Online',
    ]);
    expect(within(courses).getByRole('link', { name: 'Continue: Lash Lift Online' }).getAttribute('href')).toBe('/learn/e2/');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('asks for an email not yet confirmed to be confirmed, and sends the link again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let asked = 0;
    accountApi({
      'GET /api/auth/session': () => jsonResponse(200, unconfirmed),
      'GET /api/account': () => jsonResponse(200, empty),
      'POST /api/account/verification-link': () => {
        asked += 1;
        return asked === 1 ? jsonResponse(202, { sent: true }) : jsonResponse(429, { error: { code: 'too_many_requests', message: 'Too many requests. Please wait a minute.' } });
      },
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    const notice = await screen.findByRole('region', { name: 'Please confirm your email address' });
    expect(notice.textContent).toContain('We have sent a link to amara@example.com. Open it to confirm your address');
    await userEvent.click(within(notice).getByRole('button', { name: 'Send the link again' }));
    expect(await within(notice).findByText('We have sent a new link to amara@example.com. It works for two days.')).toHaveAttribute('role', 'status');
    await userEvent.click(within(notice).getByRole('button', { name: 'Send the link again' }));
    expect(await within(notice).findByRole('alert')).toHaveTextContent('Too many requests. Please wait a minute.');
    expect(within(notice).getByRole('status')).toHaveTextContent('');
  });

  it('says nothing of confirming once the email is confirmed', async () => {
    accountApi({ 'GET /api/account': () => jsonResponse(200, empty) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    await section('Overview');
    expect(screen.queryByRole('region', { name: 'Please confirm your email address' })).toBeNull();
  });

  it('says when there is nothing yet', async () => {
    accountApi({ 'GET /api/account': () => jsonResponse(200, empty) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/bookings/');
    expect(await screen.findByText('You have no bookings yet.', { exact: false })).toBeInTheDocument();
    expect(within(await section('Bookings')).getByRole('link', { name: 'Browse our courses' }).getAttribute('href')).toBe('/courses/');
    await userEvent.click(screen.getByRole('link', { name: 'Payments' }));
    expect(await within(await section('Payments')).findByText('You have made no payments yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Online courses' }));
    expect((await within(await section('Online courses')).findByRole('link', { name: 'See our online courses' })).getAttribute('href')).toBe('/courses/elearning/');
  });

  it('signs out, empties both baskets (§4: sign-out clears all state) and goes to the home page', async () => {
    sessionStorage.setItem(SELECTED_COURSES_KEY, JSON.stringify([inPerson]));
    sessionStorage.setItem(ONLINE_COURSES_KEY, JSON.stringify([online]));
    const api = accountApi({
      'GET /api/account': () => jsonResponse(200, empty),
      'POST /api/auth/sign-out': () => jsonResponse(200, signedOut),
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await vi.waitFor(() => expect(address()).toBe('/'));
    expect(api.routes()).toContain('POST /api/auth/sign-out');
    expect(screen.queryByText('Amara Okafor')).toBeNull();
    expect(sessionStorage.getItem(SELECTED_COURSES_KEY)).toBeNull();
    expect(sessionStorage.getItem(ONLINE_COURSES_KEY)).toBeNull();
  });

  it('says when signing out failed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    accountApi({
      'GET /api/account': () => jsonResponse(200, empty),
      'POST /api/auth/sign-out': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('alert')).textContent).toBe('We could not sign you out. Please try again.');
    expect(address()).toBe('/account/');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('offers to try again when the account cannot be loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail = true;
    accountApi({ 'GET /api/account': () => (fail ? Promise.reject(new TypeError('Failed to fetch')) : jsonResponse(200, empty)) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    expect((await screen.findByRole('alert')).textContent).toBe('We could not load your account. Please check your connection and try again.');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Your next sessions' })).toBeInTheDocument();
  });

  it('asks to sign in again when the session ended meanwhile', async () => {
    accountApi({ 'GET /api/account': () => jsonResponse(401, { error: { code: 'unauthorized', message: 'Sign in to see your account.' } }) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    expect((await screen.findByRole('link', { name: 'Sign in' })).getAttribute('href')).toBe('/sign-in/?next=/account/');
  });
});

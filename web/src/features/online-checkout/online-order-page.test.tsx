import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from '../../test/memory-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthSession } from '../../generated/AuthSession';
import type { OnlineOrderPage as OnlineOrderData } from '../../generated/OnlineOrderPage';
import { AuthProvider } from '../../lib/auth';
import { BasketProvider } from '../../lib/basket';
import { ONLINE_COURSES_KEY, type OnlineCourse } from '../../lib/basket-items';
import { CONFIRMATION_POLL_MS, CONFIRMATION_WAIT_MS } from '../../lib/use-pending-page';
import { jsonResponse } from '../../test/api-stub';
import { amaraData, signedIn, signedOut } from '../../test/auth-fixtures';
import { OnlineOrderPage } from './online-order-page';

const path = '/e-learning/order/3f2a9c1e-7b7d-4d53-9a57-1c6f0b8e2d41/';
const paid: OnlineOrderData = {
  orderId: '3f2a9c1e-7b7d-4d53-9a57-1c6f0b8e2d41',
  reference: 'E-MPM59',
  status: 'paid',
  lines: [
    { title: 'Chemical Peels Online Course', amount: 19900, courseUrl: '/courses/elearning/chemical-peels-online/' },
    { title: 'LED Light Therapy Online Course', amount: 1999, courseUrl: null },
  ],
  total: 21899,
  email: 'sam.buyer@example.com',
  inAccount: true,
};
const pending: OnlineOrderData = { ...paid, status: 'pending', email: null };
const withStatus = (status: OnlineOrderData['status']): OnlineOrderData => (status === 'paid' ? paid : { ...pending, status });
const inBasket: OnlineCourse = {
  courseId: 'c1', title: 'Chemical Peels Online Course', url: '/courses/elearning/chemical-peels-online/',
  image: { url: '/media/x.svg', alt: '', width: 10, height: 10 }, pricingId: 'price_peels', unitAmount: 19900,
  wasPrice: null, upsell: null, upsellAdded: false,
};

function renderOrder(page: OnlineOrderData) {
  sessionStorage.setItem(ONLINE_COURSES_KEY, JSON.stringify([inBasket]));
  render(
    <MemoryRouter initialEntries={[path]}>
      <AuthProvider>
        <BasketProvider>
          <OnlineOrderPage page={page} />
        </BasketProvider>
      </AuthProvider>
    </MemoryRouter>,
  );
}

/** The path a call went to: the app calls `fetch` with a string. */
const pathOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());
const isPageData = (input: RequestInfo | URL) => pathOf(input).startsWith('/api/page-data');

/**
 * The server: the session answered with `session` (signed out unless said;
 * a signed-in user's record too), and `/api/page-data` with the order in each
 * of `answers` in turn, the last one repeated; an error fails that call.
 * Returns the calls to `/api/page-data`.
 */
function serverAnswers(answers: (OnlineOrderData['status'] | Error)[], session: AuthSession = signedOut) {
  let call = 0;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    if (pathOf(input) === '/api/auth/session') return Promise.resolve(jsonResponse(200, session));
    if (!isPageData(input)) return Promise.resolve(jsonResponse(200, { data: { user: [amaraData] } }));
    const answer = answers[Math.min(call++, answers.length - 1)]!;
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(jsonResponse(200, { path, page: { kind: 'onlineOrder', ...withStatus(answer) } }));
  });
  return { pageData: () => spy.mock.calls.filter(([input]) => isPageData(input)) };
}

/** `/api/page-data` answering with the order in each `status` in turn, the last one repeated, to a signed-out buyer. */
const pageDataAnswers = (...statuses: OnlineOrderData['status'][]) => serverAnswers(statuses);

/** Lets `ms` pass a poll interval at a time, rendering in between as a browser would. */
async function advance(ms: number) {
  for (let left = ms; left > 0; left -= CONFIRMATION_POLL_MS) {
    await act(() => vi.advanceTimersByTimeAsync(Math.min(left, CONFIRMATION_POLL_MS)));
  }
}

describe('OnlineOrderPage', () => {
  afterEach(() => vi.useRealTimers());

  it('thanks the buyer for a paid order, lists it and empties the online basket', async () => {
    pageDataAnswers();
    renderOrder(paid);
    expect(screen.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe('Your course is ready. We have emailed your receipt to sam.buyer@example.com.');
    expect(screen.queryByText(/access/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Chemical Peels Online Course' }).getAttribute('href')).toBe(inBasket.url);
    expect(screen.getByRole('cell', { name: 'LED Light Therapy Online Course' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Total £218.99' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'What happens next' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact/');
    expect(sessionStorage.getItem(ONLINE_COURSES_KEY)).toBeNull();
    expect((await screen.findByRole('link', { name: 'sign in' })).getAttribute('href')).toBe('/sign-in/');
    expect(screen.getByText(/Your course waits in your account for sam.buyer@example.com/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Start your course' })).toBeNull();
  });

  it('tells a buyer without an account that the link that starts the course is in their mail', async () => {
    pageDataAnswers();
    renderOrder({ ...paid, inAccount: false });
    expect(await screen.findByText(/Start your course from the link we have emailed to sam.buyer@example.com/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'sign in' })).toBeNull();
    expect(screen.getByRole('link', { name: 'contact us' }).getAttribute('href')).toBe('/contact/');
  });

  it('sends a signed-in buyer to the course in the account', async () => {
    serverAnswers([], signedIn);
    renderOrder(paid);
    expect((await screen.findByRole('link', { name: 'Start your course' })).getAttribute('href')).toBe('/account/online-courses/');
    expect(screen.queryByRole('link', { name: 'sign in' })).toBeNull();
  });

  it('waits for a pending payment without touching the basket, then shows it paid', async () => {
    vi.useFakeTimers();
    const server = pageDataAnswers('pending', 'paid');
    renderOrder(pending);
    expect(screen.getByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toContain('waiting for the payment provider to confirm your payment');

    await advance(CONFIRMATION_POLL_MS);
    expect(server.pageData()[0]![0]).toBe(`/api/page-data?path=${encodeURIComponent(path)}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem(ONLINE_COURSES_KEY)!)).toEqual([inBasket]);

    await advance(CONFIRMATION_POLL_MS);
    expect(screen.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe('Your course is ready. We have emailed your receipt to sam.buyer@example.com.');
    expect(sessionStorage.getItem(ONLINE_COURSES_KEY)).toBeNull();
    await advance(CONFIRMATION_WAIT_MS);
    expect(server.pageData()).toHaveLength(2);
  });

  it('stops asking after thirty seconds and says the receipt will follow by email', async () => {
    vi.useFakeTimers();
    const server = pageDataAnswers('pending');
    renderOrder(pending);
    await advance(CONFIRMATION_WAIT_MS - 1);
    expect(screen.queryByText(/We will email your receipt/)).toBeNull();
    await advance(1);
    expect(screen.getByRole('status').textContent).toContain('We will email your receipt once the payment is confirmed.');
    expect(screen.getByRole('link', { name: 'contact us' }).getAttribute('href')).toBe('/contact/');
    await advance(CONFIRMATION_WAIT_MS);
    expect(server.pageData()).toHaveLength(CONFIRMATION_WAIT_MS / CONFIRMATION_POLL_MS);
    expect(screen.getByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem(ONLINE_COURSES_KEY)!)).toEqual([inBasket]);
  });

  it('says a delayed payment is on its way and keeps waiting for it, then shows it paid', async () => {
    vi.useFakeTimers();
    pageDataAnswers('processing', 'paid');
    renderOrder(pending);
    expect(screen.getByRole('status').textContent).toContain('waiting for the payment provider');
    await advance(CONFIRMATION_POLL_MS);
    expect(screen.getByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe(
      'Your payment is on its way: some payment methods take a few days to arrive. Your course will be ready once it has, and we will email your receipt. This page updates by itself.',
    );
    expect(JSON.parse(sessionStorage.getItem(ONLINE_COURSES_KEY)!)).toEqual([inBasket]);
    await advance(CONFIRMATION_POLL_MS);
    expect(screen.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeInTheDocument();
  });

  it('says when the payment did not go through, links back to the e-learning courses and keeps the basket', async () => {
    vi.useFakeTimers();
    const server = pageDataAnswers('failed');
    renderOrder(withStatus('processing'));
    await advance(CONFIRMATION_POLL_MS);
    expect(screen.getByRole('heading', { level: 1, name: 'Your payment did not go through' })).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe(
      'Nothing has been charged, and the courses are not yours yet. You can try again from our e-learning courses.',
    );
    expect(screen.getByRole('link', { name: 'e-learning courses' }).getAttribute('href')).toBe('/courses/elearning/');
    expect(screen.queryByRole('heading', { name: 'What happens next' })).toBeNull();
    expect(JSON.parse(sessionStorage.getItem(ONLINE_COURSES_KEY)!)).toEqual([inBasket]);
    await advance(CONFIRMATION_WAIT_MS);
    expect(server.pageData()).toHaveLength(1);
  });

  it('keeps waiting through a failed status check', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    serverAnswers([new TypeError('Failed to fetch'), 'paid']);
    renderOrder(pending);
    await advance(CONFIRMATION_POLL_MS);
    expect(screen.getByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeInTheDocument();
    await advance(CONFIRMATION_POLL_MS);
    expect(screen.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeInTheDocument();
  });
});

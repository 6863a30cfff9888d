import { act, render, screen } from '@testing-library/react';
import { address, CurrentAddress, MemoryRouter, Pages } from '../../test/memory-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EnrollmentPage as EnrollmentData } from '../../generated/EnrollmentPage';
import { CONFIRMATION_POLL_MS, CONFIRMATION_WAIT_MS } from '../../lib/use-pending-page';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { microneedling, selected } from '../../test/checkout-fixtures';
import { BasketProvider } from '../../lib/basket';
import { SELECTED_COURSES_KEY } from '../../lib/basket-items';
import { trackedEvents } from '../../test/tracked-events';
import { EnrollmentPage } from './enrollment-page';
import { ORDER_ID_KEY } from './order-id';

const path = '/enrolment/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const deposit: EnrollmentData = {
  orderId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  reference: 'B-Z20KM',
  status: 'deposit',
  lines: [
    { title: 'Microneedling Course', courseUrl: '/courses/aesthetics/microneedling/', date: '2027-01-12', sessionType: 'onsite', kitName: 'Microneedling starter kit', amount: 89000 },
    { title: 'Complete Injectables Package', courseUrl: '/courses/packages/complete-injectables-package/', date: null, sessionType: null, kitName: null, amount: 249500 },
  ],
  total: 305100,
  discount: 33400,
  paid: 20000,
  balance: 285100,
  balanceDueOn: '2026-12-29',
  email: 'amara@example.com',
  givenName: 'Amara',
};
const pending: EnrollmentData = { ...deposit, status: 'pending', paid: 0 };

function renderEnrollment(page: EnrollmentData) {
  sessionStorage.setItem(SELECTED_COURSES_KEY, JSON.stringify([selected(microneedling)]));
  localStorage.setItem(ORDER_ID_KEY, page.orderId);
  render(
    <MemoryRouter initialEntries={[path]}>
      <BasketProvider>
        <Pages pages={{ '/enrolment/*': <EnrollmentPage page={page} today="2026-11-26" />, '/checkout/': <CurrentAddress /> }} />
      </BasketProvider>
    </MemoryRouter>,
  );
}

/** `/api/page-data` answering with the enrollment in each status in turn, the last one repeated. */
function pageDataAnswers(...statuses: EnrollmentData['status'][]) {
  let call = 0;
  return stubApi({
    'GET /api/page-data': () => {
      const status = statuses[Math.min(call++, statuses.length - 1)]!;
      return jsonResponse(200, { path, page: { kind: 'enrollment', ...deposit, status } });
    },
  });
}

/** Lets `ms` pass a poll interval at a time, rendering in between as a browser would. */
async function advance(ms: number) {
  for (let left = ms; left > 0; left -= CONFIRMATION_POLL_MS) {
    await act(() => vi.advanceTimersByTimeAsync(Math.min(left, CONFIRMATION_POLL_MS)));
  }
}

describe('EnrollmentPage', () => {
  afterEach(() => vi.useRealTimers());

  it('confirms a paid booking fee with the booking, the balance and its due date, and empties the basket', () => {
    const tracked = trackedEvents();
    renderEnrollment(deposit);
    expect(screen.getByRole('heading', { level: 1, name: "You're enrolled" })).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe('Thank you, Amara. We have emailed your booking confirmation to amara@example.com.');
    expect(screen.getByRole('link', { name: 'Microneedling Course' }).getAttribute('href')).toBe('/courses/aesthetics/microneedling/');
    expect(screen.getByRole('row', { name: /Microneedling Course With the Microneedling starter kit Tuesday 12th January · On site £890.00/ })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Date to be arranged' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add to calendar' })).toHaveAttribute('href', `/api/enrollments/${deposit.orderId}/calendar.ics`);
    expect(screen.getByRole('row', { name: 'Discount -£334.00' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Total £3,051.00' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Paid £200.00' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Balance due by Tuesday 29th December £2,851.00' })).toBeInTheDocument();
    expect(sessionStorage.getItem(SELECTED_COURSES_KEY)).toBeNull();
    expect(localStorage.getItem(ORDER_ID_KEY)).toBeNull();
    tracked.stop();
    expect(tracked.events).toEqual([{ name: 'conversion', params: { conversion_label: 'enrol', order_id: deposit.orderId, currency: 'GBP', value: 3051 } }]);
  });

  it('says a balance due on a day already reached is due now, never a past date', () => {
    renderEnrollment({ ...deposit, balanceDueOn: '2026-11-21' });
    expect(screen.getByRole('row', { name: 'Balance due now £2,851.00' })).toBeInTheDocument();
    expect(screen.queryByText(/21st November/)).toBeNull();
  });

  it('shows a booking paid in full without a balance', () => {
    renderEnrollment({ ...deposit, status: 'completed', paid: 305100, balance: 0, balanceDueOn: null });
    expect(screen.getByRole('heading', { level: 1, name: "You're enrolled" })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Paid £3,051.00' })).toBeInTheDocument();
    expect(screen.queryByText(/Balance/)).toBeNull();
  });

  it('thanks a visitor who paid later without giving contact details', () => {
    renderEnrollment({ ...deposit, status: 'completed', givenName: '', email: '' });
    expect(screen.getByRole('status').textContent).toBe('Thank you. Please keep your booking reference below.');
    expect(screen.getByText('Booking reference: B-Z20KM')).toBeTruthy();
  });

  it('waits for a pending payment without touching the basket, then confirms it', async () => {
    vi.useFakeTimers();
    const api = pageDataAnswers('pending', 'deposit');
    renderEnrollment(pending);
    expect(screen.getByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    await advance(CONFIRMATION_POLL_MS);
    expect(api.calls).toHaveLength(1);
    expect(sessionStorage.getItem(SELECTED_COURSES_KEY)).not.toBeNull();
    expect(localStorage.getItem(ORDER_ID_KEY)).toBe(deposit.orderId);
    await advance(CONFIRMATION_POLL_MS);
    expect(screen.getByRole('heading', { level: 1, name: "You're enrolled" })).toBeInTheDocument();
    expect(sessionStorage.getItem(SELECTED_COURSES_KEY)).toBeNull();
    await advance(CONFIRMATION_WAIT_MS);
    expect(api.calls).toHaveLength(2);
  });

  it('says the confirmation will follow by email when the payment takes long', async () => {
    vi.useFakeTimers();
    pageDataAnswers('pending');
    renderEnrollment(pending);
    await advance(CONFIRMATION_WAIT_MS);
    expect(screen.getByRole('status').textContent).toContain('We will email your booking confirmation once the payment is confirmed.');
  });

  it('sends the visitor back to the checkout when the payment failed', async () => {
    vi.useFakeTimers();
    pageDataAnswers('failed');
    renderEnrollment(pending);
    await advance(CONFIRMATION_POLL_MS);
    expect(address()).toBe('/checkout/?status=failed');
    expect(sessionStorage.getItem(SELECTED_COURSES_KEY)).not.toBeNull();
  });

  it('follows the server back to the checkout when it moved the page', async () => {
    vi.useFakeTimers();
    stubApi({
      'GET /api/page-data': () =>
        jsonResponse(200, { path: '/checkout/?status=failed', page: { kind: 'checkout', gateway: 'sandbox', publishableKey: null } }),
    });
    renderEnrollment(pending);
    await advance(CONFIRMATION_POLL_MS);
    expect(address()).toBe('/checkout/?status=failed');
  });

  it('goes straight back to the checkout for an order that already failed', () => {
    renderEnrollment({ ...pending, status: 'failed' });
    expect(address()).toBe('/checkout/?status=failed');
  });
});

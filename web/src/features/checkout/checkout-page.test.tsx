import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, SLOW_DOWN, tooManyRequests } from '../../test/api-stub';
import { dermaplaning, injectablesPackage, microneedling } from '../../test/checkout-fixtures';
import { checkoutApi, intent, payButton, ready, renderCheckout, storedCourses, stubSite, totalOf } from './checkout-page-test-utils';
import { ORDER_ID_KEY } from './order-id';

const courseList = () => screen.getByRole('region', { name: 'Your selected courses' });

describe('CheckoutPage', () => {
  it('invites a visitor with no selected courses to choose one', () => {
    const api = stubSite({});
    renderCheckout([]);
    expect(screen.getByRole('heading', { level: 1, name: 'Lets get you enrolled' })).toBeInTheDocument();
    expect(screen.getByText('It appears you have not selected any courses.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Please select a course to enroll onto.' }).getAttribute('href')).toBe('/courses/');
    expect(api.routes()).toEqual(['GET /api/auth/session']);
  });

  it('shows a full-screen spinner while the session, the courses and the payment are prepared', async () => {
    let answerBasket: (response: Response) => void = () => {};
    const api = stubSite({
      'POST /api/checkout/basket': () => new Promise((resolve) => (answerBasket = resolve)),
      'POST /api/checkout/': () => jsonResponse(200, intent),
    });
    renderCheckout([microneedling]);
    expect((await screen.findByText('Preparing your checkout')).closest('[role="status"]')).toBeInTheDocument();
    await vi.waitFor(() => expect(api.calls).toEqual([
      { route: 'GET /api/auth/session', body: undefined },
      { route: 'POST /api/checkout/basket', body: { courses: [{ courseId: 'c-microneedling', sessionId: 'mn-2', includeKit: false }] } },
      { route: 'POST /api/checkout/', body: { amount: 10000, customerId: null, email: null } },
    ]));
    answerBasket(jsonResponse(200, { lines: [microneedling], removed: [] }));
    await ready();
  });

  it('lists each course with its prices, date choice, kit and remove button, and keeps the totals', async () => {
    checkoutApi([microneedling, injectablesPackage]);
    renderCheckout([microneedling, injectablesPackage]);
    await ready();
    const list = courseList();
    expect(within(list).getByRole('link', { name: 'Microneedling Course' }).getAttribute('href')).toBe(microneedling.url);
    expect(within(list).getByText('Was £995.00').tagName).toBe('S');
    expect(within(list).getByText('£795.00', { exact: false, selector: '.price' })).toBeInTheDocument();
    const dates = within(list).getByRole('group', { name: 'Select course date:' });
    expect(within(dates).getByRole('radio', { name: 'Tuesday 12th January · On site £795.00 · 5 seats left' })).toBeChecked();
    const later = within(dates).getByRole('radio', { name: 'Friday 5th March · On site £750.00 · 5 seats left' });
    expect(within(list).getByText('Your starter kit is included.')).toBeInTheDocument();
    expect(totalOf('Your training total')).toBe('£3,290.00');
    expect(totalOf('Booking fee')).toContain('£200.00');
    expect(totalOf('Balance')).toBe('£3,090.00 due by Tuesday 29th December');

    await userEvent.click(later);
    expect(within(list).getByText('£750.00', { exact: false, selector: '.price' })).toBeInTheDocument();
    expect(totalOf('Balance')).toBe('£3,045.00 due by Friday 19th February');
    await userEvent.click(within(list).getByLabelText('Add the Microneedling starter kit for £95 (worth £180)'));
    expect(totalOf('Your training total')).toBe('£3,340.00');
    expect(storedCourses()[0]).toMatchObject({ price: 75000, includeKit: true, selectedEvent: { id: 'mn-4' } });

    await userEvent.click(within(list).getByRole('button', { name: 'Remove Complete Injectables Package' }));
    expect(within(courseList()).queryByText('Complete Injectables Package')).toBeNull();
    expect(storedCourses()).toHaveLength(1);
    expect(totalOf('Booking fee')).toContain('£100.00');
  });

  it('says a balance is due today when training starts within 14 days, never a day already past', async () => {
    checkoutApi([microneedling]);
    renderCheckout([microneedling], { today: '2027-01-02' });
    await ready();
    expect(totalOf('Balance')).toBe(
      '£695.00 due today, as your training starts within 14 days: pay it with the link in your confirmation email',
    );
    expect(screen.queryByText(/29th December/)).toBeNull();
    expect(payButton()).toHaveTextContent('Pay booking fee £100.00');
  });

  it('applies a discount code, hides the box and can take the code off again', async () => {
    checkoutApi([microneedling], {
      'POST /api/code': () => jsonResponse(200, { valid: true, code: 'WELCOME10', value: 10, type: 'percent', id: 'd1' }),
    });
    renderCheckout([microneedling]);
    await ready();
    await userEvent.type(screen.getByLabelText('Discount code'), 'WELCOME10');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Discount code WELCOME10')).toBeInTheDocument();
    expect(screen.queryByLabelText('Discount code')).toBeNull();
    expect(totalOf('Discount code WELCOME10')).toContain('-£79.50');
    expect(totalOf('Total after discount')).toBe('£715.50');
    await userEvent.click(screen.getByRole('button', { name: 'Remove discount code WELCOME10' }));
    expect(screen.getByLabelText('Discount code')).toBeInTheDocument();
    expect(screen.queryByText('Total after discount')).toBeNull();
  });

  it('takes a code limited to one course off that course only', async () => {
    checkoutApi([microneedling, dermaplaning], {
      'POST /api/code': () => jsonResponse(200, {
        valid: true, code: 'DERMA10', value: 10, type: 'percent', id: 'DERMA10', courseIds: ['c-dermaplaning'],
      }),
    });
    renderCheckout([microneedling, dermaplaning]);
    await ready();
    await userEvent.type(screen.getByLabelText('Discount code'), 'DERMA10');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Discount code DERMA10')).toBeInTheDocument();
    expect(totalOf('Discount code DERMA10')).toContain('-£45.00');
    expect(totalOf('Total after discount')).toBe('£1,200.00');
  });

  it('has no payment-plan panel below £1,000', async () => {
    checkoutApi([dermaplaning]);
    renderCheckout([dermaplaning]);
    await ready();
    expect(screen.queryByRole('heading', { name: 'Spread the cost with a payment plan' })).toBeNull();
  });

  it('shows the payment-plan panel at £1,000 or more', async () => {
    checkoutApi([microneedling, dermaplaning]);
    renderCheckout([microneedling, dermaplaning]);
    await ready();
    expect(screen.getByRole('heading', { name: 'Spread the cost with a payment plan' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ask about a payment plan' })).toBeInTheDocument();
  });

  it('says when the payment provider sent the visitor back after a failed payment', async () => {
    checkoutApi([microneedling]);
    renderCheckout([microneedling], { path: '/checkout/?status=failed' });
    await ready();
    expect(screen.getByText('Payment failed. Please try an alternative payment method').getAttribute('role')).toBe('alert');
  });

  it('asks for the courses with this browser’s pending order, whose held seats are still its own', async () => {
    localStorage.setItem(ORDER_ID_KEY, 'order-0');
    const api = checkoutApi([microneedling]);
    renderCheckout([microneedling]);
    await ready();
    expect(api.calls.find((call) => call.route === 'POST /api/checkout/basket')!.body).toEqual({
      courses: [{ courseId: 'c-microneedling', sessionId: 'mn-2', includeKit: false }], orderId: 'order-0',
    });
  });

  it('offers to try again when the checkout cannot be prepared', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail = true;
    stubSite({
      'POST /api/checkout/basket': () => jsonResponse(200, { lines: [microneedling], removed: [] }),
      'POST /api/checkout/': () => (fail ? Promise.reject(new TypeError('Failed to fetch')) : jsonResponse(200, intent)),
    });
    renderCheckout([microneedling]);
    expect((await screen.findByRole('alert')).textContent).toBe('We could not prepare your checkout. Please check your connection and try again.');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await ready();
    expect(payButton()).toBeEnabled();
  });

  it('says why the checkout cannot be prepared when the server asks to slow down', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    checkoutApi([microneedling], { 'POST /api/checkout/': tooManyRequests });
    renderCheckout([microneedling]);
    expect((await screen.findByRole('alert')).textContent).toBe(SLOW_DOWN);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACK_EVENT } from '../../lib/tracking';
import { jsonResponse, SLOW_DOWN, tooManyRequests } from '../../test/api-stub';
import { microneedling } from '../../test/checkout-fixtures';
import { agree, checkoutApi, fillCard, fillContact, intent, payButton, quote, ready, renderCheckout, storedCourses, stubSite } from './checkout-page-test-utils';
import { ORDER_ID_METADATA_KEY } from './place-order';

describe('CheckoutPage sandbox payment', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates the order, sets the intent’s amount and confirms the card payment', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = checkoutApi([microneedling], {
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-1', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, { client_secret: 'pi_1_secret_def', id: 'pi_1' }),
      'POST /sandbox/payment_intents/pi_1/confirm': () => jsonResponse(200, { redirect: '/enrolment/order-1?redirect_status=succeeded' }),
    });
    localStorage.setItem('sourceParams', JSON.stringify({ utm_source: 'newsletter' }));
    renderCheckout([microneedling]);
    await ready();
    await fillContact();
    await fillCard('4242 4242 4242 4242');
    await agree();
    await userEvent.click(payButton());

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/enrolment/order-1?redirect_status=succeeded'));
    expect(api.routes().slice(3)).toEqual(['POST /api/enroll/', 'PUT /api/checkout/', 'POST /sandbox/payment_intents/pi_1/confirm']);
    const contact = { name: 'Amara', surname: 'Okafor', email: 'amara@example.com', phone: '07700 900123' };
    expect(api.calls[3]!.body).toEqual({
      data: {
        discount: null, contact, selected: 'card', mode: 'fee',
        enrollment: {
          total: 79500, deposit: 10000, balance: 69500, deposit_required: true,
          metadata: [{ courseId: 'c-microneedling', sessionId: 'mn-2', includeKit: false }],
          method: 'stripe', acct: null, status: 'pending', type: 'student', organization: null,
        },
        agreed: { version: '2026-11-26', terms: true, digitalContent: false, entryRequirements: ['c-microneedling'] },
        metadata: { utm_source: 'newsletter', payment_account_mode: 'sandbox' },
      },
    });
    expect(api.calls[4]!.body).toEqual({
      intent: 'pi_1', amount: 10000, customerId: null, email: null,
      metadata: { [ORDER_ID_METADATA_KEY]: 'order-1', name: 'Amara', surname: 'Okafor', phone: '07700 900123', email: 'amara@example.com', type: 'booking-fee' },
    });
    expect(api.calls[5]!.body).toEqual({
      client_secret: 'pi_1_secret_def', payment_method: 'card',
      card: { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' },
      return_url: `${window.location.origin}/enrolment/order-1`,
    });
    expect(localStorage.getItem('orderId')).toBe('order-1');
    expect(screen.getByRole('button', { name: 'Processing' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('pays the full total with Klarna without contact details, using the server’s quote', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = checkoutApi([microneedling], {
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-2', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
      'POST /sandbox/payment_intents/pi_1/confirm': () => jsonResponse(200, { redirect: '/sandbox/redirect/pi_1' }),
    });
    renderCheckout([microneedling]);
    await ready();
    await userEvent.click(screen.getByRole('radio', { name: 'Klarna' }));
    await agree();
    await userEvent.click(payButton());
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox/redirect/pi_1'));
    expect(api.calls[3]!.body).toMatchObject({ data: { selected: 'klarna', mode: 'full', enrollment: { deposit_required: false } } });
    expect(api.calls[4]!.body).toMatchObject({ amount: 79500, metadata: { type: 'full-amount', name: '' } });
    expect(api.calls[5]!.body).toMatchObject({ payment_method: 'klarna', card: null });
  });

  it('shows a declined card’s message, tracks a Booking Error and keeps the form', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tracked = vi.fn();
    window.addEventListener(TRACK_EVENT, tracked);
    checkoutApi([microneedling], {
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-3', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
      'POST /sandbox/payment_intents/pi_1/confirm': () =>
        jsonResponse(402, { error: { code: 'card_declined', message: 'Your card was declined.' } }),
    });
    renderCheckout([microneedling]);
    await ready();
    await fillContact();
    await fillCard('4000 0000 0000 0002');
    await agree();
    await userEvent.click(payButton());
    expect(await screen.findByText('Payment failed: Your card was declined.')).toBeInTheDocument();
    window.removeEventListener(TRACK_EVENT, tracked);
    expect(tracked.mock.calls.map(([event]) => (event as CustomEvent<Record<string, unknown>>).detail)).toContainEqual({
      name: 'Booking Error', params: { message: 'Your card was declined.' },
    });
    expect((screen.getByLabelText<HTMLInputElement>(/Card number/)).value).toBe('4000 0000 0000 0002');
    expect((screen.getByLabelText<HTMLInputElement>(/Last name/)).value).toBe('Okafor');
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
  });

  it('says when the network fails during payment', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    checkoutApi([microneedling], { 'POST /api/enroll/': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderCheckout([microneedling]);
    await ready();
    await userEvent.click(screen.getByRole('radio', { name: 'Klarna' }));
    await agree();
    await userEvent.click(payButton());
    expect((await screen.findByText(/^Payment failed: /)).textContent).toBe(
      'Payment failed: we could not reach the payment service. Please check your connection and try again.',
    );
  });

  it('refreshes the courses when the chosen session filled up, so another date can be chosen', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const full = 'Tuesday 12th January is now full. Please choose another date.';
    const moved = { ...microneedling, sessions: [microneedling.sessions[1]!], sessionId: 'mn-4', price: 75000, notice: 'Your date is full; we chose the next one.' };
    let basketCalls = 0;
    const api = stubSite({
      'POST /api/checkout/basket': () => jsonResponse(200, { lines: [basketCalls++ === 0 ? microneedling : moved], removed: [] }),
      'POST /api/checkout/': () => jsonResponse(200, intent),
      'POST /api/enroll/': () => jsonResponse(409, { error: { code: 'session_full', message: full } }),
    });
    renderCheckout([microneedling]);
    await ready();
    await userEvent.click(screen.getByRole('radio', { name: 'Klarna' }));
    await agree();
    await userEvent.click(payButton());
    expect(await screen.findByText('Microneedling Course: Your date is full; we chose the next one.')).toBeInTheDocument();
    expect(screen.getByText(`Payment failed: ${full}`)).toBeInTheDocument();
    expect(api.calls.at(-1)).toEqual({
      route: 'POST /api/checkout/basket',
      body: { courses: [{ courseId: 'c-microneedling', sessionId: 'mn-2', includeKit: false }] },
    });
    expect(storedCourses()[0]!.selectedEvent?.id).toBe('mn-4');
    expect(screen.getByText('Friday 5th March · On site')).toBeInTheDocument();
  });

  it('shows the server’s message when it asks to slow down, as a failed payment (§8)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    checkoutApi([microneedling], { 'POST /api/enroll/': tooManyRequests });
    renderCheckout([microneedling]);
    await ready();
    await userEvent.click(screen.getByRole('radio', { name: 'Klarna' }));
    await agree();
    await userEvent.click(payButton());
    expect((await screen.findByText(/^Payment failed: /)).textContent).toBe(`Payment failed: ${SLOW_DOWN}`);
  });
});

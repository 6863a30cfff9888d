import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthSession } from '../../generated/AuthSession';
import type { CheckoutLine } from '../../generated/CheckoutLine';
import type { CheckoutPage as CheckoutPageData } from '../../generated/CheckoutPage';
import { TRACK_EVENT } from '../../lib/tracking';
import { jsonResponse, SLOW_DOWN, stubApi, tooManyRequests, type Answer } from '../../test/api-stub';
import { amara, signedIn, signedOut } from '../../test/auth-fixtures';
import { dermaplaning, injectablesPackage, microneedling, selected } from '../../test/checkout-fixtures';
import { fakeStripe } from '../../test/fake-stripe';
import { AuthProvider } from '../../lib/auth';
import { BasketProvider } from '../../lib/basket';
import { SELECTED_COURSES_KEY, type SelectedCourse } from '../../lib/basket-items';
import { CheckoutPage } from './checkout-page';
import { ORDER_ID_KEY, ORDER_ID_METADATA_KEY } from './place-order';
import { STRIPE_JS_URL } from './stripe-js';

const sandboxPage: CheckoutPageData = { gateway: 'sandbox', publishableKey: null };
const stripePage: CheckoutPageData = { gateway: 'stripe', publishableKey: 'pk_test_1' };
const intent = { client_secret: 'pi_1_secret_abc', id: 'pi_1' };

function renderCheckout(lines: CheckoutLine[], { path = '/checkout/', page = sandboxPage } = {}) {
  sessionStorage.setItem(SELECTED_COURSES_KEY, JSON.stringify(lines.map(selected)));
  render(
    <MemoryRouter initialEntries={[path]}>
      <AuthProvider>
        <BasketProvider>
          <CheckoutPage page={page} />
        </BasketProvider>
      </AuthProvider>
    </MemoryRouter>,
  );
}

/** The site's API answering `answers`, for a visitor signed out unless `session` says otherwise. */
function stubSite(answers: Record<string, Answer>, session: AuthSession = signedOut) {
  return stubApi({ 'GET /api/auth/session': () => jsonResponse(200, session), ...answers });
}

/** The catalogue answering for `lines` and a booking-fee intent, plus `more` calls. */
function checkoutApi(lines: CheckoutLine[], more: Record<string, Answer> = {}, session: AuthSession = signedOut) {
  return stubSite({
    'POST /api/checkout/basket': () => jsonResponse(200, { lines, removed: [] }),
    'POST /api/checkout/': () => jsonResponse(200, intent),
    ...more,
  }, session);
}

const storedCourses = () => JSON.parse(sessionStorage.getItem(SELECTED_COURSES_KEY) ?? '[]') as SelectedCourse[];
const courseList = () => screen.getByRole('region', { name: 'Your selected courses' });
const totalOf = (label: string) => screen.getByText(label).nextElementSibling!.textContent;
const payButton = () => screen.getByRole('button', { name: /^Pay / });

async function ready() {
  await screen.findByRole('heading', { name: 'Your selected courses' });
  await vi.waitFor(() => expect(screen.queryByText('Preparing your checkout')).toBeNull());
}

async function fillContact() {
  await userEvent.type(screen.getByLabelText(/First name/), 'Amara');
  await userEvent.type(screen.getByLabelText(/Last name/), 'Okafor');
  await userEvent.type(screen.getByLabelText(/Email/), 'amara@example.com');
  await userEvent.type(screen.getByLabelText(/Phone number/), '07700 900123');
}

async function fillCard(number: string) {
  await userEvent.type(screen.getByLabelText(/Card number/), number);
  await userEvent.type(screen.getByLabelText(/Expiry/), '12 / 34');
  await userEvent.type(screen.getByLabelText(/Security code/), '123');
}

describe('CheckoutPage', () => {
  afterEach(() => vi.unstubAllGlobals());

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
    expect(within(list).getByText('£795.00', { exact: false })).toBeInTheDocument();
    const date = within(list).getByLabelText<HTMLSelectElement>('Select course date:');
    expect(Array.from(date.options, (o) => o.textContent)).toEqual(['Tuesday 12th January · On site', 'Friday 5th March · On site']);
    expect(within(list).getByText('Your starter kit is included.')).toBeInTheDocument();
    expect(totalOf('Your training total')).toBe('£3,290.00');
    expect(totalOf('Booking fee')).toContain('£200.00');
    expect(totalOf('Balance')).toBe('£3,090.00 due by Tuesday 29th December');

    await userEvent.selectOptions(date, 'mn-4');
    expect(within(list).getByText('£750.00', { exact: false })).toBeInTheDocument();
    expect(totalOf('Balance')).toBe('£3,045.00 due by Friday 19th February');
    await userEvent.click(within(list).getByLabelText('Add the Microneedling starter kit for £95 (worth £180)'));
    expect(totalOf('Your training total')).toBe('£3,340.00');
    expect(storedCourses()[0]).toMatchObject({ price: 75000, includeKit: true, selectedEvent: { id: 'mn-4' } });

    await userEvent.click(within(list).getByRole('button', { name: 'Remove Complete Injectables Package' }));
    expect(within(courseList()).queryByText('Complete Injectables Package')).toBeNull();
    expect(storedCourses()).toHaveLength(1);
    expect(totalOf('Booking fee')).toContain('£100.00');
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

  it('requires the contact and card details for a card payment, beside each field', async () => {
    const api = checkoutApi([microneedling]);
    renderCheckout([microneedling]);
    await ready();
    await userEvent.type(screen.getByLabelText(/Email/), 'amara@');
    await userEvent.click(payButton());
    for (const message of [
      'Name is required', 'Last name is required', 'Enter a valid email address', 'Phone number is required',
      'Card number is required', 'Expiry date is required', 'Security code is required',
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    const firstName = screen.getByLabelText(/First name/);
    expect(firstName.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(firstName.getAttribute('aria-describedby')!)!.textContent).toBe('Name is required');
    expect(document.activeElement).toBe(firstName);
    expect((screen.getByLabelText<HTMLInputElement>(/Email/)).value).toBe('amara@');
    await userEvent.clear(screen.getByLabelText(/Email/));
    await userEvent.click(payButton());
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(api.routes()).not.toContain('POST /api/enroll/');
  });

  it('pays the booking fee by card, the full total by Klarna or Clearpay, and offers Clearpay up to £1,200', async () => {
    checkoutApi([microneedling]);
    renderCheckout([microneedling]);
    await ready();
    expect(screen.getByRole('radio', { name: 'Card' })).toHaveProperty('checked', true);
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
    expect(screen.getByText('4242 4242 4242 4242: payment succeeds')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Klarna' }));
    expect(payButton().textContent).toBe('Pay £795.00');
    expect(totalOf('Paying in full today')).toBe('£795.00');
    expect(screen.queryByLabelText(/Card number/)).toBeNull();
    expect(screen.getByLabelText(/First name/).hasAttribute('required')).toBe(false);

    await userEvent.click(screen.getByRole('radio', { name: 'Clearpay' }));
    expect(payButton().textContent).toBe('Pay £795.00');
    await userEvent.selectOptions(screen.getByLabelText('Select course date:'), 'mn-4');
    await userEvent.click(screen.getByLabelText(/Add the Microneedling starter kit/));
    expect(payButton().textContent).toBe('Pay £845.00');

    await userEvent.click(screen.getByRole('radio', { name: 'Card' }));
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
    expect(totalOf('Balance')).toContain('£745.00');
  });

  it('hides Clearpay above £1,200 and falls back to card', async () => {
    checkoutApi([microneedling, dermaplaning]);
    renderCheckout([microneedling, dermaplaning]);
    await ready();
    expect(screen.getByRole('radio', { name: 'Klarna' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Clearpay' })).toBeNull();
  });

  it('creates the order, sets the intent’s amount and confirms the card payment', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const quote = { subtotal: 79500, discount: 0, total: 79500, deposit: 10000, balance: 69500 };
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

  it('fills in a signed-in buyer’s details and sends their payment account id and email with the intent (§6)', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const quote = { subtotal: 79500, discount: 0, total: 79500, deposit: 10000, balance: 69500 };
    const api = checkoutApi([microneedling], {
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-1', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
      'POST /sandbox/payment_intents/pi_1/confirm': () => jsonResponse(200, { redirect: '/enrolment/order-1' }),
    }, signedIn);
    renderCheckout([microneedling]);
    await ready();
    const customer = { customerId: 'cus_amara', email: amara.email };
    expect(api.calls[2]).toEqual({ route: 'POST /api/checkout/', body: { amount: 10000, ...customer } });
    expect((screen.getByLabelText<HTMLInputElement>(/First name/)).value).toBe('Amara');
    expect((screen.getByLabelText<HTMLInputElement>(/Last name/)).value).toBe('Okafor');
    expect((screen.getByLabelText<HTMLInputElement>(/Email/)).value).toBe('amara@example.com');
    expect((screen.getByLabelText<HTMLInputElement>(/Phone number/)).value).toBe('+447700900123');
    await fillCard('4242 4242 4242 4242');
    await userEvent.click(payButton());
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/enrolment/order-1'));
    expect(api.calls[4]).toMatchObject({ route: 'PUT /api/checkout/', body: { intent: 'pi_1', ...customer } });
  });

  it('pays the full total with Klarna without contact details, using the server’s quote', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const quote = { subtotal: 79500, discount: 0, total: 79500, deposit: 10000, balance: 69500 };
    const api = checkoutApi([microneedling], {
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-2', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
      'POST /sandbox/payment_intents/pi_1/confirm': () => jsonResponse(200, { redirect: '/sandbox/redirect/pi_1' }),
    });
    renderCheckout([microneedling]);
    await ready();
    await userEvent.click(screen.getByRole('radio', { name: 'Klarna' }));
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
    const quote = { subtotal: 79500, discount: 0, total: 79500, deposit: 10000, balance: 69500 };
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
    await userEvent.click(payButton());
    expect(await screen.findByText('Microneedling Course: Your date is full; we chose the next one.')).toBeInTheDocument();
    expect(screen.getByText(full)).toBeInTheDocument();
    expect(api.calls.at(-1)).toEqual({
      route: 'POST /api/checkout/basket',
      body: { courses: [{ courseId: 'c-microneedling', sessionId: 'mn-2', includeKit: false }] },
    });
    expect(storedCourses()[0]!.selectedEvent?.id).toBe('mn-4');
    expect(screen.getByText('Friday 5th March · On site')).toBeInTheDocument();
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

  it('shows the server’s message when it asks to slow down, as a failed payment (§8)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    checkoutApi([microneedling], { 'POST /api/enroll/': tooManyRequests });
    renderCheckout([microneedling]);
    await ready();
    await userEvent.click(screen.getByRole('radio', { name: 'Klarna' }));
    await userEvent.click(payButton());
    expect((await screen.findByText(/^Payment failed: /)).textContent).toBe(`Payment failed: ${SLOW_DOWN}`);
  });

  it('puts the server’s field messages beside the fields', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    checkoutApi([microneedling], {
      'POST /api/enroll/': () =>
        jsonResponse(422, { error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { phone: 'Please keep this under 200 characters' } } }),
    });
    renderCheckout([microneedling]);
    await ready();
    await fillContact();
    await fillCard('4242 4242 4242 4242');
    await userEvent.click(payButton());
    expect(await screen.findByText('Please keep this under 200 characters')).toBeInTheDocument();
    expect(screen.getByText('Please check the highlighted fields.')).toBeInTheDocument();
    expect(document.activeElement).toBe(screen.getByLabelText(/Phone number/));
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

describe('CheckoutPage with Stripe', () => {
  const quote = { subtotal: 79500, discount: 0, total: 79500, deposit: 10000, balance: 69500 };
  const stripeScripts = () => document.querySelectorAll<HTMLScriptElement>(`script[src="${STRIPE_JS_URL}"]`);
  const paymentGroup = () => screen.getByRole('group', { name: 'Payment method' });

  afterEach(() => {
    vi.unstubAllGlobals();
    stripeScripts().forEach((script) => script.remove());
    delete window.Stripe;
  });

  /** Stripe.js arrives: the fake goes on `window.Stripe` and the script says it loaded. */
  async function loadStripeJs(fake: ReturnType<typeof fakeStripe>) {
    const script = await waitFor(() => {
      expect(stripeScripts()).toHaveLength(1);
      return stripeScripts()[0]!;
    });
    await act(async () => {
      window.Stripe = fake.Stripe;
      script.dispatchEvent(new Event('load'));
    });
  }

  async function readyWithStripe(lines: CheckoutLine[], fake: ReturnType<typeof fakeStripe>) {
    renderCheckout(lines, { page: stripePage });
    await ready();
    await loadStripeJs(fake);
    await waitFor(() => expect(payButton()).toHaveProperty('disabled', false));
  }

  it('loads Stripe.js after hydration and mounts the Payment Element with the intent’s client secret', async () => {
    checkoutApi([microneedling]);
    const fake = fakeStripe();
    renderCheckout([microneedling], { page: stripePage });
    await ready();
    const [script] = stripeScripts();
    expect(script!.async).toBe(true);
    expect(script!.parentElement).toBe(document.head);
    expect(within(paymentGroup()).getByRole('status').textContent).toBe('Loading the payment form');
    expect(payButton()).toHaveProperty('disabled', true);
    expect(screen.queryByLabelText(/Card number/)).toBeNull();

    await loadStripeJs(fake);
    expect(fake.calls.map((call) => call.name)).toEqual([
      'Stripe', 'stripe.elements', 'elements.create', 'element.on', 'element.on', 'element.on', 'element.mount',
    ]);
    expect(fake.argsOf('Stripe')).toEqual(['pk_test_1']);
    expect(fake.argsOf('stripe.elements')).toEqual([{ clientSecret: 'pi_1_secret_abc', locale: 'en-GB' }]);
    expect(fake.argsOf('elements.create')).toEqual(['payment', { paymentMethodOrder: ['card', 'klarna', 'afterpay_clearpay'] }]);
    const [target] = fake.argsOf('element.mount') as [HTMLElement];
    expect(paymentGroup().contains(target)).toBe(true);
    expect(within(paymentGroup()).queryByRole('status')).toBeNull();
    expect(payButton()).toHaveProperty('disabled', false);
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
    expect(stripeScripts()).toHaveLength(1);
  });

  it('pays in full when Klarna or Clearpay is chosen in the element, and the booking fee by card', async () => {
    checkoutApi([microneedling]);
    const fake = fakeStripe();
    await readyWithStripe([microneedling], fake);

    fake.choose('klarna');
    expect(payButton().textContent).toBe('Pay £795.00');
    expect(totalOf('Paying in full today')).toBe('£795.00');
    expect(screen.getByLabelText(/First name/).hasAttribute('required')).toBe(false);

    fake.choose('afterpay_clearpay');
    expect(payButton().textContent).toBe('Pay £795.00');

    fake.choose('card');
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
    expect(totalOf('Balance')).toContain('£695.00');
    expect(screen.getByLabelText(/First name/).hasAttribute('required')).toBe(true);

    fake.choose('link');
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
  });

  it('asks for another method when Clearpay is chosen above £1,200', async () => {
    checkoutApi([microneedling, dermaplaning]);
    const fake = fakeStripe();
    await readyWithStripe([microneedling, dermaplaning], fake);
    fake.choose('afterpay_clearpay');
    expect(screen.getByText('Clearpay is not available for totals over £1,200.00. Please choose another payment method.').getAttribute('role')).toBe('alert');
    expect(payButton()).toHaveProperty('disabled', true);
    fake.choose('klarna');
    expect(screen.queryByText(/Clearpay is not available/)).toBeNull();
    expect(payButton().textContent).toBe('Pay £1,245.00');
    expect(payButton()).toHaveProperty('disabled', false);
  });

  it('validates with Stripe, creates the order, updates the intent, fetches it into the element and confirms', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const log: string[] = [];
    const api = checkoutApi([microneedling], {
      'POST /api/enroll/': () => {
        log.push('POST /api/enroll/');
        return jsonResponse(201, { id: 'order-1', quote });
      },
      'PUT /api/checkout/': () => {
        log.push('PUT /api/checkout/');
        return jsonResponse(200, { client_secret: 'pi_1_secret_abc', id: 'pi_1' });
      },
    });
    const fake = fakeStripe({ log });
    await readyWithStripe([microneedling], fake);
    await fillContact();
    log.length = 0;
    await userEvent.click(payButton());

    const next = `${window.location.origin}/enrolment/order-1?payment_intent=pi_1&redirect_status=succeeded`;
    await waitFor(() => expect(assign).toHaveBeenCalledWith(next));
    expect(log).toEqual([
      'elements.submit', 'POST /api/enroll/', 'PUT /api/checkout/', 'elements.fetchUpdates', 'stripe.confirmPayment',
    ]);
    expect(api.calls[3]!.body).toMatchObject({
      data: { selected: 'card', mode: 'fee', metadata: { payment_account_mode: 'test' } },
    });
    expect(api.calls[4]!.body).toMatchObject({ intent: 'pi_1', amount: 10000, metadata: { [ORDER_ID_METADATA_KEY]: 'order-1', type: 'booking-fee' } });
    expect(fake.argsOf('stripe.confirmPayment')).toEqual([{
      elements: fake.elements,
      confirmParams: { return_url: `${window.location.origin}/enrolment/order-1` },
      redirect: 'if_required',
    }]);
    expect(screen.getByRole('button', { name: 'Processing' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('charges the full total when Klarna is chosen', async () => {
    vi.stubGlobal('location', { ...window.location, assign: vi.fn() });
    const api = checkoutApi([microneedling], {
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-2', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
    });
    const fake = fakeStripe();
    await readyWithStripe([microneedling], fake);
    fake.choose('klarna');
    await userEvent.click(payButton());
    await waitFor(() => expect(fake.argsOf('stripe.confirmPayment')).toBeDefined());
    expect(api.calls[3]!.body).toMatchObject({ data: { selected: 'klarna', mode: 'full' } });
    expect(api.calls[4]!.body).toMatchObject({ amount: 79500, metadata: { type: 'full-amount' } });
  });

  it('shows Stripe’s message when the payment is refused, and keeps the form', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    checkoutApi([microneedling], {
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-3', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
    });
    const fake = fakeStripe({ confirm: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } } });
    await readyWithStripe([microneedling], fake);
    await fillContact();
    await userEvent.click(payButton());
    expect((await screen.findByText(/^Payment failed/)).textContent).toBe('Payment failed: Your card was declined.');
    expect(assign).not.toHaveBeenCalled();
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
    expect((screen.getByLabelText<HTMLInputElement>(/Last name/)).value).toBe('Okafor');
  });

  it('shows what Stripe found missing before making any order', async () => {
    const api = checkoutApi([microneedling]);
    const fake = fakeStripe({ submit: { error: { type: 'validation_error', message: 'Your card number is incomplete.' } } });
    await readyWithStripe([microneedling], fake);
    await fillContact();
    await userEvent.click(payButton());
    expect((await screen.findByText('Your card number is incomplete.')).getAttribute('role')).toBe('alert');
    expect(api.routes()).not.toContain('POST /api/enroll/');
    expect(fake.argsOf('stripe.confirmPayment')).toBeUndefined();
    expect(payButton().getAttribute('aria-disabled')).toBe('false');
  });

  it('says when Stripe.js cannot load, keeps Pay disabled and can try again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    checkoutApi([microneedling]);
    renderCheckout([microneedling], { page: stripePage });
    await ready();
    await act(async () => {
      stripeScripts()[0]!.dispatchEvent(new Event('error'));
    });
    expect(within(paymentGroup()).getByRole('alert').textContent).toBe(
      'The payment form could not load. Please check your connection and try again.',
    );
    expect(payButton()).toHaveProperty('disabled', true);
    expect(warn).toHaveBeenCalledWith('Reported error', expect.any(Error), { action: 'load Stripe.js' });
    expect(stripeScripts()).toHaveLength(0);

    await userEvent.click(within(paymentGroup()).getByRole('button', { name: 'Try again' }));
    const fake = fakeStripe();
    await loadStripeJs(fake);
    expect(fake.argsOf('element.mount')).toEqual([expect.any(HTMLElement) as unknown]);
    expect(within(paymentGroup()).queryByRole('alert')).toBeNull();
    expect(payButton()).toHaveProperty('disabled', false);
  });

  it('says when the Payment Element cannot load', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    checkoutApi([microneedling]);
    const fake = fakeStripe();
    await readyWithStripe([microneedling], fake);
    const error = { type: 'invalid_request_error', message: 'No such payment_intent' };
    fake.failToLoad(error);
    expect(within(paymentGroup()).getByRole('alert').textContent).toBe(
      'The payment form could not load. Please check your connection and try again.',
    );
    expect(payButton()).toHaveProperty('disabled', true);
    expect(warn).toHaveBeenCalledWith('Reported error', error, { action: 'mount the Stripe Payment Element' });
  });
});

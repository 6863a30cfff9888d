import { describe, expect, it, type MockInstance } from 'vitest';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { microneedling, selected } from '../../test/checkout-fixtures';
import { fakeStripe } from '../../test/fake-stripe';
import { confirmStripePayment, ENROLL_ATTEMPT_KEY, PaymentRefused, placeOrder, type OrderDraft } from './place-order';
import { ORDER_ID_KEY } from './order-id';

const quote = { subtotal: 79500, discount: 0, total: 79500, deposit: 10000, balance: 69500 };
const draft: OrderDraft = {
  courses: [selected(microneedling)], figures: quote, method: 'card',
  contact: { name: 'Amara', surname: 'Okafor', email: 'amara@example.com', phone: '07700 900123' },
  discountCode: null, paymentAccountMode: 'sandbox', customer: { customerId: null, email: null }, plan: null,
  agreed: { version: '2026-11-26', terms: true, digitalContent: false, entryRequirements: ['c-microneedling'] },
};
const intent = { client_secret: 'pi_1_secret', id: 'pi_1' };
const confirm = (_intent: unknown, returnTo: string) => Promise.resolve(returnTo.replace(window.location.origin, ''));

/** The `Idempotency-Key` of each `POST /api/enroll/` made through `fetch`. */
const keysSent = (fetch: MockInstance<typeof globalThis.fetch>) =>
  fetch.mock.calls
    .filter(([url, init]) => (url instanceof Request ? url.url : url.toString()) === '/api/enroll/' && init?.method === 'POST')
    .map(([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key']);

describe('placeOrder', () => {
  it('replaces the pending order this browser made before', async () => {
    localStorage.setItem(ORDER_ID_KEY, 'order-0');
    const api = stubApi({
      'PUT /api/enroll/': () => jsonResponse(200, { id: 'order-0', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
    });
    expect(await placeOrder(draft, intent, confirm)).toBe('/enrolment/order-0');
    expect(api.routes()).toEqual(['PUT /api/enroll/', 'PUT /api/checkout/']);
    expect(api.calls[0]!.body).toMatchObject({ id: 'order-0', data: { mode: 'fee' } });
  });

  it('makes a new order when the old one can no longer change', async () => {
    localStorage.setItem(ORDER_ID_KEY, 'order-paid');
    const api = stubApi({
      'PUT /api/enroll/': () => jsonResponse(409, { error: { code: 'conflict', message: 'This order is no longer pending.' } }),
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-new', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
    });
    expect(await placeOrder(draft, intent, confirm)).toBe('/enrolment/order-new');
    expect(api.routes()).toEqual(['PUT /api/enroll/', 'POST /api/enroll/', 'PUT /api/checkout/']);
    expect(localStorage.getItem(ORDER_ID_KEY)).toBe('order-new');
  });

  it('sends a signed-in buyer’s payment account id and email with the intent (§6)', async () => {
    const api = stubApi({
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-1', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
    });
    const customer = { customerId: 'cus_1', email: 'amara@example.com' };
    await placeOrder({ ...draft, customer }, intent, confirm);
    expect(api.calls[1]!.body).toMatchObject({ intent: 'pi_1', amount: 10000, ...customer });
  });

  it('sends a new order with an Idempotency-Key, and the same key when the same order is sent again', async () => {
    let enrolls = 0;
    const api = stubApi({
      'POST /api/enroll/': () => (enrolls++ === 0 ? Promise.reject(new TypeError('Failed to fetch')) : jsonResponse(200, { id: 'order-1', quote })),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
    });
    await expect(placeOrder(draft, intent, confirm)).rejects.toThrow('Failed to fetch');
    expect(localStorage.getItem(ORDER_ID_KEY)).toBeNull();
    expect(await placeOrder(draft, intent, confirm)).toBe('/enrolment/order-1');
    const [first, retry] = keysSent(api.spy);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retry).toBe(first);
    expect(sessionStorage.getItem(ENROLL_ATTEMPT_KEY)).toBeNull();
  });

  it('makes a new Idempotency-Key when the order changed since the last try', async () => {
    let enrolls = 0;
    const api = stubApi({
      'POST /api/enroll/': () => (enrolls++ === 0 ? Promise.reject(new TypeError('Failed to fetch')) : jsonResponse(200, { id: 'order-2', quote })),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
    });
    await expect(placeOrder(draft, intent, confirm)).rejects.toThrow();
    await placeOrder({ ...draft, contact: { ...draft.contact, phone: '07700 900999' } }, intent, confirm);
    const [first, changed] = keysSent(api.spy);
    expect(changed).toMatch(/^[0-9a-f-]{36}$/);
    expect(changed).not.toBe(first);
  });

  it('keeps the order id when a later step fails, so the retry replaces it', async () => {
    stubApi({
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-1', quote }),
      'PUT /api/checkout/': () => jsonResponse(422, { error: { code: 'amount', message: 'The price has changed.' } }),
    });
    await expect(placeOrder(draft, intent, confirm)).rejects.toThrow('The price has changed.');
    expect(localStorage.getItem(ORDER_ID_KEY)).toBe('order-1');
  });
});

describe('confirmStripePayment', () => {
  const stripeOf = (fake: ReturnType<typeof fakeStripe>) => fake.Stripe('pk_test_1');

  it('fetches the updated intent into the element, then confirms, redirecting only when the method needs it', async () => {
    const fake = fakeStripe({ confirm: { paymentIntent: { id: 'pi_1', status: 'processing' } } });
    const confirm = confirmStripePayment(stripeOf(fake), fake.elements);
    expect(await confirm(intent, `${window.location.origin}/enrolment/order%201`)).toBe(
      `${window.location.origin}/enrolment/order%201?payment_intent=pi_1&redirect_status=processing`,
    );
    expect(await confirm(intent, `${window.location.origin}/pay-balance/?token=ab12`)).toBe(
      `${window.location.origin}/pay-balance/?token=ab12&payment_intent=pi_1&redirect_status=processing`,
    );
    expect(fake.calls.map((call) => call.name).slice(0, 3)).toEqual(['Stripe', 'elements.fetchUpdates', 'stripe.confirmPayment']);
    expect(fake.argsOf('stripe.confirmPayment')).toEqual([{
      elements: fake.elements, confirmParams: { return_url: `${window.location.origin}/enrolment/order%201` }, redirect: 'if_required',
    }]);
  });

  it('refuses with Stripe’s message', async () => {
    const fake = fakeStripe({ confirm: { error: { type: 'card_error', message: 'Your card has insufficient funds.' } } });
    const refused = confirmStripePayment(stripeOf(fake), fake.elements)(intent, `${window.location.origin}/enrolment/order-1`);
    await expect(refused).rejects.toEqual(new PaymentRefused('Your card has insufficient funds.'));
    await expect(refused).rejects.toBeInstanceOf(PaymentRefused);
  });

  it('does not confirm when the element cannot fetch the intent’s new amount', async () => {
    const fake = fakeStripe();
    fake.elements.fetchUpdates = async () => ({ error: { message: 'Network error' } });
    await expect(confirmStripePayment(stripeOf(fake), fake.elements)(intent, `${window.location.origin}/enrolment/order-1`)).rejects.not.toBeInstanceOf(PaymentRefused);
    expect(fake.argsOf('stripe.confirmPayment')).toBeUndefined();
  });
});

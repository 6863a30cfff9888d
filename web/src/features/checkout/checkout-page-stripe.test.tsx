import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckoutLine } from '../../generated/CheckoutLine';
import { jsonResponse } from '../../test/api-stub';
import { dermaplaning, microneedling } from '../../test/checkout-fixtures';
import { fakeStripe } from '../../test/fake-stripe';
import { agree, checkoutApi, fillContact, intent, payButton, quote, ready, renderCheckout, stripePage, totalOf } from './checkout-page-test-utils';
import { ORDER_ID_METADATA_KEY } from './place-order';
import { STRIPE_JS_URL } from './stripe-js';

describe('CheckoutPage with Stripe', () => {
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
    await agree();
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
    await agree();
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
    await agree();
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
    await agree();
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

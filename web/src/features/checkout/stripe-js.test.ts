import { afterEach, describe, expect, it } from 'vitest';
import { fakeStripe } from '../../test/fake-stripe';
import { loadStripeJs, STRIPE_JS_URL } from './stripe-js';

const scripts = () => document.querySelectorAll<HTMLScriptElement>(`script[src="${STRIPE_JS_URL}"]`);

describe('loadStripeJs', () => {
  afterEach(() => {
    scripts().forEach((script) => script.remove());
    delete window.Stripe;
  });

  it('adds one script for any number of callers and resolves to window.Stripe once it has loaded', async () => {
    const first = loadStripeJs();
    const second = loadStripeJs();
    expect(scripts()).toHaveLength(1);
    const { Stripe } = fakeStripe();
    window.Stripe = Stripe;
    scripts()[0]!.dispatchEvent(new Event('load'));
    expect(await first).toBe(Stripe);
    expect(await second).toBe(Stripe);
    expect(await loadStripeJs()).toBe(Stripe);
    expect(scripts()).toHaveLength(1);
  });

  it('rejects and removes the script when it cannot load, so the next call tries again', async () => {
    const loading = loadStripeJs();
    scripts()[0]!.dispatchEvent(new Event('error'));
    await expect(loading).rejects.toThrow(`Could not load ${STRIPE_JS_URL}`);
    expect(scripts()).toHaveLength(0);
    void loadStripeJs();
    expect(scripts()).toHaveLength(1);
  });

  it('rejects when the script loads without defining Stripe', async () => {
    const loading = loadStripeJs();
    scripts()[0]!.dispatchEvent(new Event('load'));
    await expect(loading).rejects.toThrow('Stripe.js loaded without window.Stripe');
  });
});

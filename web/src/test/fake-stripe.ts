import { act } from '@testing-library/react';
import type {
  StripeConfirmPaymentOptions, StripeConfirmResult, StripeConstructor, StripeElements, StripeElementsOptions,
  StripeError, StripePaymentElement, StripePaymentElementChangeEvent, StripePaymentElementOptions,
} from '../features/checkout/stripe-js';

type Handler = (event: unknown) => void;

/**
 * A stand-in for Stripe.js: `Stripe` goes on `window.Stripe`. It records each
 * call in `calls` (and its name in `log`, which a test may share with its API
 * stub to see the order of everything), lets the test emit the Payment
 * Element's events, and answers `submit` and `confirmPayment` as told.
 * Mounting emits `ready`, as the real element does once it has rendered.
 */
export function fakeStripe({
  log = [],
  submit = {},
  confirm = { paymentIntent: { id: 'pi_1', status: 'succeeded' } },
}: {
  log?: string[];
  submit?: { error?: StripeError };
  confirm?: StripeConfirmResult;
} = {}) {
  const calls: { name: string; args: unknown[] }[] = [];
  const handlers = new Map<string, Handler>();
  const record = (name: string, ...args: unknown[]) => {
    calls.push({ name, args });
    log.push(name);
  };

  const element: StripePaymentElement = {
    on(event: string, handler: Handler) {
      record('element.on', event);
      handlers.set(event, handler);
      return element;
    },
    mount(target: HTMLElement) {
      record('element.mount', target);
      handlers.get('ready')?.({ elementType: 'payment' });
    },
    destroy() {
      record('element.destroy');
    },
  } as StripePaymentElement;

  const elements: StripeElements = {
    create(type: 'payment', options?: StripePaymentElementOptions) {
      record('elements.create', type, options);
      return element;
    },
    submit() {
      record('elements.submit');
      return Promise.resolve(submit);
    },
    fetchUpdates() {
      record('elements.fetchUpdates');
      return Promise.resolve({});
    },
  };

  const stripe = {
    elements(options: StripeElementsOptions) {
      record('stripe.elements', options);
      return elements;
    },
    confirmPayment(options: StripeConfirmPaymentOptions) {
      record('stripe.confirmPayment', options);
      return Promise.resolve(confirm);
    },
    confirmSetup(options: StripeConfirmPaymentOptions) {
      record('stripe.confirmSetup', options);
      return Promise.resolve({ setupIntent: { id: 'seti_1', status: 'succeeded' } });
    },
  };

  const Stripe: StripeConstructor = (publishableKey) => {
    record('Stripe', publishableKey);
    return stripe;
  };

  return {
    Stripe,
    elements,
    calls,
    /** The arguments of the first call named `name`. */
    argsOf: (name: string) => calls.find((call) => call.name === name)?.args,
    /** The visitor picks a method (`card`, `klarna`, `afterpay_clearpay`) in the element. */
    choose: (type: string) =>
      act(() => {
        const event: StripePaymentElementChangeEvent = {
          elementType: 'payment', empty: false, complete: false, collapsed: false, value: { type },
        };
        handlers.get('change')?.(event);
      }),
    /** The element fails to load inside its frame. */
    failToLoad: (error: StripeError) => act(() => handlers.get('loaderror')?.({ elementType: 'payment', error })),
  };
}

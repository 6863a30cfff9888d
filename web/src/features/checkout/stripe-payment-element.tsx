import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { reportError } from '../../lib/report-error';
import { useRequest } from '../../lib/use-request';
import { confirmStripePayment, confirmStripeSetup, type ConfirmPayment } from './place-order';
import type { PaymentMethod } from '../../lib/payment-methods';
import { loadStripeJs } from './stripe-js';

export const STRIPE_UNAVAILABLE = 'The payment form could not load. Please check your connection and try again.';
const STRIPE_INCOMPLETE = 'Please check your payment details.';

/** What the page needs from a mounted Payment Element to take a payment. */
export interface StripeCheckout {
  /**
   * `elements.submit()`: Stripe checks its own fields and a wallet collects
   * what it needs. Call it straight from the Pay click, before the order is
   * made. Resolves to Stripe's message when something is missing, else null.
   */
  validate(): Promise<string | null>;
  confirm: ConfirmPayment;
}

/** Klarna and Clearpay pay in full (mode full); any other method is a card paying the booking fee. */
export function methodOf(type: string): PaymentMethod {
  return type === 'klarna' || type === 'afterpay_clearpay' ? type : 'card';
}

type Status = 'loading' | 'ready' | 'failed';

/**
 * Stripe's Payment Element, in production what the sandbox's payment element
 * is in development. Stripe.js loads after hydration (effects only: the
 * server renders without a DOM); the element mounts once the page has the
 * booking-fee intent's client secret.
 */
export function StripePaymentElement({ publishableKey, clientSecret, onMethodChange, onReady, setup = false }: {
  publishableKey: string | null;
  /** The booking-fee payment intent's, once the page has prepared it. */
  clientSecret: string | null;
  onMethodChange: (method: PaymentMethod) => void;
  /** The element can take a payment, or (null) no longer can. */
  onReady: (checkout: StripeCheckout | null) => void;
  /** The client secret is a setup intent's: the card is saved, no money taken. */
  setup?: boolean;
}) {
  const container = useRef<HTMLDivElement>(null);
  // Each try mounts the element afresh; its outcome is kept with the try it belongs to.
  const [attempt, setAttempt] = useState(0);
  const [element, setElement] = useState<{ attempt: number; status: 'ready' | 'failed' } | null>(null);
  // Stripe.js loads while the page prepares the payment intent.
  const stripeJsRequest = useRequest('Stripe.js', () => loadStripeJs(), { reportAs: 'load Stripe.js' });
  const stripeJs = stripeJsRequest.status === 'done' ? stripeJsRequest.data : undefined;
  const mounted = element?.attempt === attempt ? element.status : 'loading';
  const status: Status = !publishableKey || stripeJsRequest.status === 'failed' || mounted === 'failed' ? 'failed' : mounted;

  const failed = useEffectEvent((error: unknown) => {
    reportError(error, { action: 'mount the Stripe Payment Element' });
    setElement({ attempt, status: 'failed' });
    onReady(null);
  });
  const changed = useEffectEvent((type: string) => onMethodChange(methodOf(type)));
  const ready = useEffectEvent((checkout: StripeCheckout | null) => {
    if (checkout) setElement({ attempt, status: 'ready' });
    onReady(checkout);
  });

  useEffect(() => {
    const target = container.current;
    if (!stripeJs || !clientSecret || !target) return;
    if (!publishableKey) {
      reportError(new Error('Stripe is the gateway but the page has no publishable key'), { action: 'mount the Stripe Payment Element' });
      return;
    }
    const stripe = stripeJs(publishableKey);
    const elements = stripe.elements({ clientSecret, locale: 'en-GB' });
    // Card first, so the element starts on the method the page starts on.
    const element = elements.create('payment', { paymentMethodOrder: ['card', 'klarna', 'afterpay_clearpay'] });
    element.on('change', (event) => changed(event.value.type));
    element.on('ready', () =>
      ready({
        validate: async () => {
          const { error } = await elements.submit();
          return error ? (error.message ?? STRIPE_INCOMPLETE) : null;
        },
        confirm: (setup ? confirmStripeSetup : confirmStripePayment)(stripe, elements),
      }),
    );
    element.on('loaderror', (event) => failed(event.error));
    element.mount(target);
    return () => {
      element.destroy();
      ready(null);
    };
  }, [stripeJs, publishableKey, clientSecret, attempt, setup]);

  function retry() {
    setAttempt((n) => n + 1);
    if (stripeJsRequest.status === 'failed') stripeJsRequest.retry();
  }

  return (
    <fieldset className="payment-element stripe-payment-element" aria-busy={status === 'loading'}>
      <legend>Payment method</legend>
      {status === 'loading' && (
        <p role="status" className="form-note">
          <span className="spinner" aria-hidden="true" />
          Loading the payment form
        </p>
      )}
      {status === 'failed' && (
        <>
          <p role="alert" className="form-error">{STRIPE_UNAVAILABLE}</p>
          <button type="button" className="button button-small" onClick={retry}>
            Try again
          </button>
        </>
      )}
      <div ref={container} hidden={status === 'failed'} />
    </fieldset>
  );
}

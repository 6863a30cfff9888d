// Stripe.js, loaded from js.stripe.com as Stripe requires (it may not be
// bundled). Only the parts the enrol checkout uses are declared here; see
// https://docs.stripe.com/js. The page's CSP allows js.stripe.com only when
// Stripe is the gateway.

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** A Stripe API error as Stripe.js reports it; `message` is meant for the visitor. */
export interface StripeError {
  type: string;
  code?: string;
  message?: string;
}

/** The Payment Element's `change` event: `value.type` is the chosen method, e.g. `card`, `klarna`, `afterpay_clearpay`. */
export interface StripePaymentElementChangeEvent {
  elementType: 'payment';
  empty: boolean;
  complete: boolean;
  collapsed: boolean;
  value: { type: string };
}

export interface StripePaymentElement {
  on(event: 'change', handler: (event: StripePaymentElementChangeEvent) => void): StripePaymentElement;
  on(event: 'ready', handler: (event: { elementType: 'payment' }) => void): StripePaymentElement;
  on(event: 'loaderror', handler: (event: { elementType: 'payment'; error: StripeError }) => void): StripePaymentElement;
  mount(domElement: HTMLElement): void;
  destroy(): void;
}

export interface StripePaymentElementOptions {
  /** The order the methods are shown in; the first is selected at first. */
  paymentMethodOrder?: string[];
  layout?: 'tabs' | 'accordion' | 'auto';
}

export interface StripeElements {
  create(type: 'payment', options?: StripePaymentElementOptions): StripePaymentElement;
  /** Validates the Payment Element and collects what a wallet needs, before anything else happens. */
  submit(): Promise<{ error?: StripeError; selectedPaymentMethod?: string }>;
  /** Reloads the intent's amount and methods after the server changed them. */
  fetchUpdates(): Promise<{ error?: { message: string; status?: string } }>;
}

export interface StripeElementsOptions {
  clientSecret: string;
  locale?: string;
}

/** The parts of a PaymentIntent that `confirmPayment` resolves with. */
export interface StripePaymentIntent {
  id: string;
  status: string;
}

export type StripeConfirmResult =
  | { paymentIntent: StripePaymentIntent; error?: undefined }
  | { paymentIntent?: undefined; error: StripeError };

export interface StripeConfirmPaymentOptions {
  elements: StripeElements;
  confirmParams: { return_url: string };
  /** `if_required`: only methods that need a redirect (Klarna, Clearpay, 3-D Secure pages) leave the page. */
  redirect: 'if_required';
}

/** What `confirmSetup` resolves with: the card saved, or Stripe's refusal. */
export type StripeSetupResult =
  | { setupIntent: { id: string; status: string }; error?: undefined }
  | { setupIntent?: undefined; error: StripeError };

export interface Stripe {
  elements(options: StripeElementsOptions): StripeElements;
  confirmPayment(options: StripeConfirmPaymentOptions): Promise<StripeConfirmResult>;
  confirmSetup(options: StripeConfirmPaymentOptions): Promise<StripeSetupResult>;
}

export type StripeConstructor = (publishableKey: string) => Stripe;

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

const scriptSelector = `script[src="${STRIPE_JS_URL}"]`;

/**
 * Loads Stripe.js once and resolves to `window.Stripe`. Browser only: call it
 * from an effect, never while rendering (the server renders in QuickJS, which
 * has no DOM). A script that failed is removed, so calling again retries.
 */
export function loadStripeJs(): Promise<StripeConstructor> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  return new Promise((resolve, reject) => {
    let script = document.querySelector<HTMLScriptElement>(scriptSelector);
    if (!script) {
      script = document.createElement('script');
      script.src = STRIPE_JS_URL;
      script.async = true;
      document.head.appendChild(script);
    }
    const loaded = script;
    const failed = (message: string) => {
      loaded.remove();
      reject(new Error(message));
    };
    loaded.addEventListener('load', () => {
      if (window.Stripe) resolve(window.Stripe);
      else failed('Stripe.js loaded without window.Stripe');
    });
    loaded.addEventListener('error', () => failed(`Could not load ${STRIPE_JS_URL}`));
  });
}

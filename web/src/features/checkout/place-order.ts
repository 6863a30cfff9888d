import type { Agreed } from '../../generated/Agreed';
import type { Contact } from '../../generated/Contact';
import type { EnrollData } from '../../generated/EnrollData';
import type { EnrollRequest } from '../../generated/EnrollRequest';
import type { EnrollResponse } from '../../generated/EnrollResponse';
import type { EnrollUpdateRequest } from '../../generated/EnrollUpdateRequest';
import type { IntentMetadata } from '../../generated/IntentMetadata';
import type { IntentResponse } from '../../generated/IntentResponse';
import type { IntentUpdateRequest } from '../../generated/IntentUpdateRequest';
import type { PlanChoice } from '../../generated/PlanChoice';
import type { Quote } from '../../generated/Quote';
import type { SandboxCard } from '../../generated/SandboxCard';
import type { SandboxConfirmRequest } from '../../generated/SandboxConfirmRequest';
import type { SandboxConfirmResponse } from '../../generated/SandboxConfirmResponse';
import { ApiError, postJson, putJson } from '../../lib/api';
import { readSourceParams } from '../../lib/source-params';
import { readJson, readText, removeItem, writeJson, writeText } from '../../lib/storage';
import type { SelectedCourse } from '../../lib/basket-items';
import { chosenCourses } from './checkout-lines';
import { trimContact } from './checkout-rules';
import { ORDER_ID_KEY } from './order-id';
import type { PaymentMethod } from '../../lib/payment-methods';
import { amountDue, modeFor, selectedFor } from './pricing';
import type { Stripe, StripeElements } from './stripe-js';

// Decision 006: on submit the order is created, the payment intent
// made on load gets the order's amount and metadata, and the gateway confirms
// the payment with the return address /enrolment/{orderId}.

/**
 * The payment intent's metadata names its order under this key, the
 * `order_id` of enrol_domain's `IntentMetadata`; the webhook finds the order by it.
 */
export const ORDER_ID_METADATA_KEY = 'Order ID' satisfies keyof IntentMetadata;
/** Decision 009: the new order last sent, with the key that makes sending it again one order. */
export const ENROLL_ATTEMPT_KEY = 'enrollAttempt';
const ENROLL_PATH = '/api/enroll/';
export const INTENT_PATH = '/api/checkout/';

/** A signed-in buyer's payment account id and email; both null for a visitor. */
export type IntentCustomer = Pick<IntentUpdateRequest, 'customerId' | 'email'>;

export interface OrderDraft {
  courses: SelectedCourse[];
  /** The page's preview; the server refuses the order if its own figures differ. */
  figures: Quote;
  method: PaymentMethod;
  contact: Contact;
  /** What the buyer agreed to (decision 020). */
  agreed: Agreed;
  discountCode: string | null;
  /** `sandbox`, `test` or `live`: the payment account the order was paid into. */
  paymentAccountMode: string;
  /** Who the payment intent was made for. */
  customer: IntentCustomer;
  /** The instalment plan agreed to, with the parts shown (decision 036). */
  plan: PlanChoice | null;
}

/** `POST /api/enroll/` `data`: the order as the browser asks for it (decision 006). */
function enrollData(draft: OrderDraft): EnrollData {
  const mode = modeFor(draft.method);
  return {
    discount: draft.discountCode,
    contact: trimContact(draft.contact),
    selected: selectedFor(draft.method),
    mode,
    agreed: draft.agreed,
    enrollment: {
      total: draft.figures.total,
      deposit: draft.figures.deposit,
      balance: draft.figures.balance,
      deposit_required: mode === 'fee',
      metadata: chosenCourses(draft.courses),
      method: 'stripe',
      acct: null,
      status: 'pending',
      type: 'student',
      organization: null,
    },
    metadata: { ...readSourceParams(), payment_account_mode: draft.paymentAccountMode },
  };
}

interface EnrollAttempt {
  key: string;
  body: string;
}

function isEnrollAttempt(value: unknown): value is EnrollAttempt {
  const attempt = value as Partial<EnrollAttempt> | null;
  return typeof attempt?.key === 'string' && typeof attempt.body === 'string';
}

/**
 * The `Idempotency-Key` of a new order: the same one when the same order is
 * sent again (a retry after a network error or a timeout, whose first try
 * may have made it: the server answers with that order), a new one when
 * anything in it changed.
 */
function idempotencyKeyFor(body: string): string {
  const last = readJson('session', ENROLL_ATTEMPT_KEY, isEnrollAttempt);
  if (last?.body === body) return last.key;
  const key = crypto.randomUUID();
  writeJson('session', ENROLL_ATTEMPT_KEY, { key, body } satisfies EnrollAttempt);
  return key;
}

async function createOrder(data: EnrollData): Promise<EnrollResponse> {
  const request: EnrollRequest = { data };
  const key = idempotencyKeyFor(JSON.stringify(request));
  const order = await postJson<EnrollResponse>(ENROLL_PATH, request, { headers: { 'Idempotency-Key': key } });
  removeItem('session', ENROLL_ATTEMPT_KEY);
  return order;
}

/**
 * Replaces the pending order this browser made before (a retry after a
 * declined card, say) or creates one. An order the server no longer lets
 * change (paid, failed or expired) is left alone and a new one made.
 */
async function saveOrder(data: EnrollData): Promise<EnrollResponse> {
  const previous = readText('local', ORDER_ID_KEY);
  if (previous) {
    try {
      return await putJson<EnrollResponse>(ENROLL_PATH, { id: previous, data } satisfies EnrollUpdateRequest);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return createOrder(data);
}

/** `PUT /api/checkout/`: the amount due now by the server's quote, and the order's metadata. */
function updateIntent(intent: IntentResponse, order: EnrollResponse, draft: OrderDraft): Promise<IntentResponse> {
  const mode = modeFor(draft.method);
  const contact = trimContact(draft.contact);
  const request: IntentUpdateRequest = {
    intent: intent.id,
    amount: amountDue(order.quote, mode),
    ...draft.customer,
    metadata: {
      [ORDER_ID_METADATA_KEY]: order.id,
      name: contact.name,
      surname: contact.surname,
      phone: contact.phone,
      email: contact.email,
      type: mode === 'full' ? 'full-amount' : 'booking-fee',
    },
    ...(draft.plan ? { plan: draft.plan } : {}),
  };
  return putJson<IntentResponse>(INTENT_PATH, request);
}

/** The gateway's confirm step, returning the visitor to `returnTo`: resolves to where the browser goes next. */
export type ConfirmPayment = (intent: IntentResponse, returnTo: string) => Promise<string>;

export async function placeOrder(draft: OrderDraft, intent: IntentResponse, confirm: ConfirmPayment): Promise<string> {
  const order = await saveOrder(enrollData(draft));
  writeText('local', ORDER_ID_KEY, order.id);
  return confirm(await updateIntent(intent, order, draft), returnUrl(`/enrolment/${encodeURIComponent(order.id)}`));
}

/** Where the payment provider sends the visitor back to: `path` on this site. */
export function returnUrl(path: string): string {
  return `${window.location.origin}${path}`;
}

/** The payment provider refused the payment; the message is the provider's. */
export class PaymentRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentRefused';
  }
}

/** The sandbox's confirm: a declined card is refused with the provider's message. */
export async function confirmSandboxPayment(
  intent: IntentResponse,
  method: PaymentMethod,
  card: SandboxCard,
  returnTo: string,
): Promise<string> {
  const request: SandboxConfirmRequest = {
    client_secret: intent.client_secret,
    payment_method: method,
    card: method === 'card' ? card : null,
    return_url: returnTo,
  };
  try {
    const answer = await postJson<SandboxConfirmResponse>(
      `/sandbox/payment_intents/${encodeURIComponent(intent.id)}/confirm`,
      request,
    );
    return answer.redirect;
  } catch (error) {
    throw error instanceof ApiError ? new PaymentRefused(error.message) : error;
  }
}

/** The sandbox's `confirmSetup`: the card saved to the setup intent's customer; resolves to the setup intent's id. */
export async function confirmSandboxSetup(setup: IntentResponse, card: SandboxCard): Promise<string> {
  try {
    await postJson<{ id: string; status: string }>(`/sandbox/setup_intents/${encodeURIComponent(setup.id)}/confirm`, {
      client_secret: setup.client_secret,
      card,
    });
    return setup.id;
  } catch (error) {
    throw error instanceof ApiError ? new PaymentRefused(error.message) : error;
  }
}

const STRIPE_REFUSED = 'The payment was not completed. Please try again or choose another payment method.';

/**
 * Stripe's confirm, for the Payment Element `elements` mounted with the
 * intent's client secret. `placeOrder` has just changed the intent's amount
 * on the server, so the element fetches it before confirming. A card is
 * confirmed here and the visitor goes to the return address as Stripe would
 * send them; Klarna, Clearpay and 3-D Secure pages leave through Stripe's
 * redirect instead. A refusal carries Stripe's message.
 */
/**
 * Stripe's confirm of a setup intent (a plan's card saved, no money
 * taken, decision 036): resolves to the setup intent's id once saved.
 */
export function confirmStripeSetup(stripe: Stripe, elements: StripeElements): ConfirmPayment {
  return async (setup, back) => {
    const result = await stripe.confirmSetup({ elements, confirmParams: { return_url: back }, redirect: 'if_required' });
    if (result.error) throw new PaymentRefused(result.error.message ?? STRIPE_REFUSED);
    return result.setupIntent.id ?? setup.id;
  };
}

export function confirmStripePayment(stripe: Stripe, elements: StripeElements): ConfirmPayment {
  return async (_intent, back) => {
    const updated = await elements.fetchUpdates();
    if (updated.error) throw new Error(updated.error.message);
    const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: back }, redirect: 'if_required' });
    if (result.error) throw new PaymentRefused(result.error.message ?? STRIPE_REFUSED);
    const status = result.paymentIntent.status === 'processing' ? 'processing' : 'succeeded';
    const join = back.includes('?') ? '&' : '?';
    return `${back}${join}payment_intent=${encodeURIComponent(result.paymentIntent.id)}&redirect_status=${status}`;
  };
}

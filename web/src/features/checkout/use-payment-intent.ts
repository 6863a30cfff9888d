import type { IntentRequest } from '../../generated/IntentRequest';
import type { IntentResponse } from '../../generated/IntentResponse';
import { postJson } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { useRequest } from '../../lib/use-request';
import { INTENT_PATH, type IntentCustomer } from './place-order';
import { BOOKING_FEE } from './pricing';

type PaymentIntent =
  | { status: 'loading' }
  | { status: 'ready'; intent: IntentResponse; customer: IntentCustomer }
  /** `error` says why: a 429's message says when to try again. */
  | { status: 'failed'; error: unknown };

/**
 * The booking-fee payment intent, prepared once the session is known
 * (the spinner covers both) and again by `retry` if that failed.
 * A signed-in buyer's payment account id and email go with it.
 * Submitting sets its real amount, for the same `customer`.
 */
export function usePaymentIntent(): PaymentIntent & { retry: () => void } {
  const { loading, user, userData } = useAuth();
  const customer: IntentCustomer = { customerId: userData?.stripe_id ?? null, email: user?.email ?? null };
  const request = useRequest(
    loading ? null : JSON.stringify(customer),
    async (signal) => {
      const body: IntentRequest = { amount: BOOKING_FEE, ...customer };
      return { intent: await postJson<IntentResponse>(INTENT_PATH, body, { signal }), customer };
    },
    { reportAs: 'prepare the payment intent' },
  );
  const { retry } = request;
  if (request.status === 'failed') return { status: 'failed', error: request.error, retry };
  if (request.status === 'done' && request.data) return { status: 'ready', ...request.data, retry };
  return { status: 'loading', retry };
}

import { useEffect, useState } from 'react';
import type { IntentRequest } from '../../generated/IntentRequest';
import type { IntentResponse } from '../../generated/IntentResponse';
import { postJson } from '../../lib/api';
import { reportError } from '../../lib/report-error';
import { useAuth } from '../../lib/auth';
import { INTENT_PATH, type IntentCustomer } from './place-order';
import { BOOKING_FEE } from './pricing';

type PaymentIntent =
  | { status: 'loading' }
  | { status: 'ready'; intent: IntentResponse; customer: IntentCustomer }
  /** `error` says why: a 429's message says when to try again. */
  | { status: 'failed'; error: unknown };

/**
 * §7: the booking-fee payment intent, prepared once the session is known
 * (§2: the spinner covers both) and again by `retry` if that failed.
 * §6: a signed-in buyer's payment account id and email go with it.
 * Submitting sets its real amount, for the same `customer`.
 */
export function usePaymentIntent() {
  const { loading, user, userData } = useAuth();
  const [state, setState] = useState<PaymentIntent>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const customerId = userData?.stripe_id ?? null;
  const email = user?.email ?? null;

  useEffect(() => {
    if (loading) return;
    const controller = new AbortController();
    const customer: IntentCustomer = { customerId, email };
    const request: IntentRequest = { amount: BOOKING_FEE, ...customer };
    postJson<IntentResponse>(INTENT_PATH, request, { signal: controller.signal })
      .then((intent) => setState({ status: 'ready', intent, customer }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        reportError(error, { action: 'prepare the payment intent' });
        setState({ status: 'failed', error });
      });
    return () => controller.abort();
  }, [attempt, loading, customerId, email]);

  const retry = () => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  };
  return { ...state, retry };
}

import { useEffect, useState } from 'react';
import type { IntentRequest } from '../../generated/IntentRequest';
import type { IntentResponse } from '../../generated/IntentResponse';
import { postJson } from '../../lib/api';
import { reportError } from '../../lib/report-error';
import { INTENT_PATH } from './place-order';
import { BOOKING_FEE } from './pricing';

type PaymentIntent = { status: 'loading' } | { status: 'ready'; intent: IntentResponse } | { status: 'failed' };

/**
 * §7: the booking-fee payment intent, prepared once when the page opens
 * (and again by `retry` if that failed). Submitting sets its real amount.
 */
export function usePaymentIntent() {
  const [state, setState] = useState<PaymentIntent>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const request: IntentRequest = { amount: BOOKING_FEE, customerId: null, email: null };
    postJson<IntentResponse>(INTENT_PATH, request, { signal: controller.signal })
      .then((intent) => setState({ status: 'ready', intent }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        reportError(error, { action: 'prepare the payment intent' });
        setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [attempt]);

  const retry = () => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  };
  return { ...state, retry };
}

import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { reportError } from './report-error';

// The one way a hook loads something (decision 012): the page data on client
// navigation, the session, search, the account, the checkout's basket and
// payment intent, Stripe.js. A request is named by its `key`: a new key
// aborts the one before and sends again, `null` sends nothing, leaving the
// page aborts. Loading is read from the key, not set in an effect, so there
// is no render in between.

export type RequestStatus = 'idle' | 'loading' | 'done' | 'failed';

export interface Request<T> {
  status: RequestStatus;
  /** The latest answer, kept while the next one loads (the page stays as it was until the new one is ready). */
  data: T | undefined;
  /** Why the latest request failed, when `status` is `failed`. */
  error: unknown;
  /** Sends the same request again (after a failure, say). */
  retry: () => void;
}

interface Settled<T> {
  /** The key and attempt this answer is for. */
  for: string;
  data: T | undefined;
  error: unknown;
  failed: boolean;
}

interface RequestOptions<T> {
  /** An answer already known for its key, like the page data the server embedded: it is not asked for again. */
  initial?: { key: string; data: T };
  /** What was being done, for `reportError` when the request fails: 'load the account'. */
  reportAs?: string;
}

/**
 * Sends `send(signal)` whenever `key` changes, or on `retry`. `send` may close
 * over anything: the latest one is used, and only a new key (or a retry)
 * sends again.
 */
export function useRequest<T>(
  key: string | null,
  send: (signal: AbortSignal) => Promise<T>,
  { initial, reportAs }: RequestOptions<T> = {},
): Request<T> {
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<Settled<T> | null>(() =>
    initial ? { for: `0 ${initial.key}`, data: initial.data, error: undefined, failed: false } : null,
  );
  // What the effect knows was answered last, so the initial answer is not asked for again.
  const last = useRef(settled);
  const current = key === null ? null : `${attempt} ${key}`;
  const sendLatest = useEffectEvent(send);

  useEffect(() => {
    if (current === null || last.current?.for === current) return;
    const controller = new AbortController();
    const settle = (answer: Settled<T>) => {
      if (controller.signal.aborted) return;
      last.current = answer;
      setSettled(answer);
    };
    sendLatest(controller.signal).then(
      (data) => settle({ for: current, data, error: undefined, failed: false }),
      (error: unknown) => {
        if (reportAs && !controller.signal.aborted) reportError(error, { action: reportAs });
        settle({ for: current, data: last.current?.data, error, failed: true });
      },
    );
    return () => controller.abort();
  }, [current, reportAs]);

  const answered = settled !== null && settled.for === current;
  // The same function on every render, so a callback made with it keeps its identity.
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return {
    status: current === null ? 'idle' : !answered ? 'loading' : settled.failed ? 'failed' : 'done',
    data: settled?.data,
    error: answered ? settled.error : undefined,
    retry,
  };
}

import { useState } from 'react';
import { ApiError } from './api';

const UNREACHABLE = 'We could not reach the college. Please try again.';

/**
 * One button's call at a time (a cancellation, a move, a claim): whether it
 * is running, and the server's words when it failed. A click while one runs
 * does nothing.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function run(step: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      await step();
    } catch (failure) {
      // A refusal (4xx) says what happened in the server's words: a link run out, a seat claimed.
      setError(failure instanceof ApiError && failure.status < 500 ? failure.message : UNREACHABLE);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}

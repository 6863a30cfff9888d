import { useState } from 'react';
import { failureMessage } from './api';

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
      setError(failureMessage(failure, UNREACHABLE));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}

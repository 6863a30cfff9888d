import { useState } from 'react';
import { failureOf } from '../lib/admin-api';

/**
 * One button's change at a time (resend a mail, expire a code, disable a
 * member of staff, mark attendance): whether it is running, what it did and
 * the server's words when it failed. The site's `useAction` says one fixed
 * sentence for every failure, which suits students; staff are shown why.
 */
export function useCommand() {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const [error, setError] = useState('');
  /** Runs `step`, which answers what it did; a click while one runs does nothing. */
  async function run(step: () => Promise<string>) {
    if (busy) return;
    setBusy(true);
    setDone('');
    setError('');
    try {
      setDone(await step());
    } catch (failure) {
      setError(failureOf(failure));
    } finally {
      setBusy(false);
    }
  }
  return { busy, done, error, run };
}

export type Command = ReturnType<typeof useCommand>;

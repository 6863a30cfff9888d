import { useState } from 'react';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import { ApiError, postJson } from '../../lib/api';
import { reportError } from '../../lib/report-error';
import { useLinkToken } from '../../lib/use-link-token';

/** `/newsletter/confirm/?token=…`, the link of the newsletter's mail: one press confirms the subscription. */
export function ConfirmNewsletterPage({ page }: { page: AccountFormPage }) {
  const token = useLinkToken();
  const [state, setState] = useState<'waiting' | 'sending' | 'done'>('waiting');
  const [message, setMessage] = useState('');

  async function confirm() {
    if (!token || state !== 'waiting') return;
    setState('sending');
    try {
      await postJson('/api/newsletter/confirm', { token });
      setState('done');
    } catch (error) {
      reportError(error, { action: 'confirm the newsletter' });
      setMessage(error instanceof ApiError ? error.message : 'We could not confirm it. Please try again.');
      setState('waiting');
    }
  }

  return (
    <div className="container account-form">
      <h1>{page.heading}</h1>
      {state === 'done' ? (
        <p role="status">You are subscribed. Thank you: our next newsletter is on its way to you.</p>
      ) : token === null ? (
        <p role="alert">This link is not complete. Please open it from the email again.</p>
      ) : (
        <>
          <p>Press the button to confirm that you would like our news, offers and new course dates.</p>
          <p role="alert" className="form-error">{message}</p>
          <button type="button" className="button" aria-disabled={state === 'sending' || token === undefined} onClick={() => void confirm()}>
            {state === 'sending' ? 'Confirming...' : 'Confirm my subscription'}
          </button>
        </>
      )}
    </div>
  );
}

import { useId, useState } from 'react';
import { postJson } from '../../lib/api';
import { useAction } from '../../lib/use-action';

// Decision 009: sign-up signs in at once, but an email is trusted only once
// the mailed link proves it; until then no booking made with it joins the
// account. The account says so above everything else, and sends the link
// again when the first is lost or has run out.

export function UnconfirmedEmail({ email }: { email: string }) {
  const id = useId();
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const send = () =>
    run(async () => {
      setSent(false);
      await postJson('/api/account/verification-link', {});
      setSent(true);
    });
  return (
    <section className="account-unconfirmed" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Please confirm your email address</h2>
      <p>
        We have sent a link to <strong>{email}</strong>. Open it to confirm your address: the courses you book with it
        show here once it is confirmed.
      </p>
      <p role="status" className="form-success">{sent ? `We have sent a new link to ${email}. It works for two days.` : ''}</p>
      {error && <p role="alert" className="form-error">{error}</p>}
      <button type="button" className="button button-secondary" aria-disabled={busy} onClick={() => void send()}>
        {busy ? 'Sending...' : 'Send the link again'}
      </button>
    </section>
  );
}

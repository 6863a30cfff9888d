import { useId, useState, type FormEvent } from 'react';

// The footer's newsletter sign-up (docs/product.md#enquiries). Double opt-in: the address joins
// only once it opens the link mailed to it; the consent is asked for here,
// in words the server keeps with the address.

export const NEWSLETTER_CONSENT = 'Email me news, offers and new course dates. I can unsubscribe at any time.';

export function NewsletterForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  const [message, setMessage] = useState('');
  const [state, setState] = useState<'editing' | 'sending' | 'sent'>('editing');

  async function send(event: FormEvent) {
    event.preventDefault();
    if (state !== 'editing') return;
    setState('sending');
    const { newsletterProblem, sendNewsletter } = await import('./send-newsletter');
    const problem = newsletterProblem(email, consent);
    if (problem) {
      setMessage(problem.message);
      setState('editing');
      document.getElementById(`${id}-${problem.field}`)?.focus();
      return;
    }
    setMessage('');
    const failed = await sendNewsletter(email, consent);
    setMessage(failed ?? '');
    setState(failed ? 'editing' : 'sent');
  }

  if (state === 'sent') {
    return <p role="status" className="newsletter-sent">{`Nearly done: open the link we have emailed to ${email.trim()} to confirm.`}</p>;
  }
  return (
    <form className="newsletter-form" noValidate onSubmit={(event) => void send(event)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Newsletter</h2>
      <label htmlFor={`${id}-email`}>Your email</label>
      <input
        id={`${id}-email`}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        aria-describedby={message ? `${id}-message` : undefined}
      />
      <label className="newsletter-consent">
        <input id={`${id}-consent`} type="checkbox" checked={consent} onChange={(event) => setConsent(event.target.checked)} />
        {NEWSLETTER_CONSENT}
      </label>
      {/* Said only when there is something to say: a page's own form keeps the one alert that is always there. */}
      {message && <p id={`${id}-message`} role="alert" className="form-error">{message}</p>}
      <button type="submit" className="button" aria-disabled={state === 'sending'}>{state === 'sending' ? 'Signing up...' : 'Sign up'}</button>
    </form>
  );
}

import { useId, useState } from 'react';
import type { CancellationQuote } from '../../../generated/CancellationQuote';
import { failureMessage, getJson, postJson } from '../../../lib/api';
import { formatMoney } from '../../../lib/money';

// Issue 13: a student cancels a booking. What the college's terms give back
// is asked for and shown first; only then can they confirm.

type Answer = CancellationQuote & { explanation: string };

const UNREACHABLE = 'We could not reach the college. Please try again.';

export function CancelBooking({ enrollmentId, onCancelled }: { enrollmentId: string; onCancelled: () => void }) {
  const id = useId();
  const [quote, setQuote] = useState<Answer | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const path = `/api/account/enrollments/${encodeURIComponent(enrollmentId)}`;

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

  const ask = () => run(async () => setQuote(await getJson<Answer>(`${path}/cancellation`)));
  const cancel = () =>
    run(async () => {
      await postJson<Answer>(`${path}/cancel`, {});
      onCancelled();
    });

  if (!quote) {
    return (
      <>
        <button type="button" className="button button-secondary" aria-disabled={busy} onClick={() => void ask()}>
          Cancel booking
        </button>
        {error && <p role="alert" className="form-error">{error}</p>}
      </>
    );
  }
  return (
    <section className="cancel-booking" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Cancel this booking?</h3>
      <p>{quote.explanation}</p>
      <p>
        <strong>{quote.refund > 0 ? `You will be refunded ${formatMoney(quote.refund)}.` : 'No refund is due.'}</strong>
      </p>
      <p>
        <a href="/terms-and-conditions/">Read our terms and conditions</a>
      </p>
      {error && <p role="alert" className="form-error">{error}</p>}
      <div className="button-row">
        <button type="button" className="button" aria-disabled={busy} onClick={() => void cancel()}>
          Yes, cancel my booking
        </button>
        <button type="button" className="button button-secondary" onClick={() => setQuote(null)} disabled={busy}>
          Keep my booking
        </button>
      </div>
    </section>
  );
}

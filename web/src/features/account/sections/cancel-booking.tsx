import { useId, useState } from 'react';
import type { CancellationQuote } from '../../../generated/CancellationQuote';
import { getJson, postJson } from '../../../lib/api';
import { formatMoney } from '../../../lib/money';
import { useAction } from '../../../lib/use-action';

// A student cancels a booking (docs/product.md#changes). What the college's terms give back
// is asked for and shown first; only then can they confirm.

type Answer = CancellationQuote & { explanation: string };

export function CancelBooking({ enrollmentId, onCancelled }: { enrollmentId: string; onCancelled: () => void }) {
  const id = useId();
  const [quote, setQuote] = useState<Answer | null>(null);
  const { busy, error, run } = useAction();
  const path = `/api/account/enrollments/${encodeURIComponent(enrollmentId)}`;

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

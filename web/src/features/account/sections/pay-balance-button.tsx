import { useState } from 'react';
import { failureMessage, postJson } from '../../../lib/api';
import { formatMoney } from '../../../lib/money';

const UNREACHABLE = 'We could not open the payment page. Please try again.';

/** Opens the page that pays a booking's balance (issue 13), through a link made for the signed-in owner. */
export function PayBalanceButton({ enrollmentId, balance }: { enrollmentId: string; balance: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function open() {
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      const { url } = await postJson<{ url: string }>(`/api/account/enrollments/${encodeURIComponent(enrollmentId)}/balance-link`, {});
      window.location.assign(url);
    } catch (failure) {
      setError(failureMessage(failure, UNREACHABLE));
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="button" aria-disabled={busy} onClick={() => void open()}>
        {`Pay ${formatMoney(balance)}`}
      </button>
      {error && <p role="alert" className="form-error">{error}</p>}
    </>
  );
}

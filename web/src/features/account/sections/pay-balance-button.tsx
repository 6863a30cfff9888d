import { postJson } from '../../../lib/api';
import { formatMoney } from '../../../lib/money';
import { useAction } from '../../../lib/use-action';

/** Opens the page that pays a booking's balance (docs/product.md#balance), through a link made for the signed-in owner. */
export function PayBalanceButton({ enrollmentId, balance }: { enrollmentId: string; balance: number }) {
  const { busy, error, run } = useAction();
  const open = () =>
    run(async () => {
      const { url } = await postJson<{ url: string }>(`/api/account/enrollments/${encodeURIComponent(enrollmentId)}/balance-link`, {});
      window.location.assign(url);
    });

  return (
    <>
      <button type="button" className="button" aria-disabled={busy} onClick={() => void open()}>
        {`Pay ${formatMoney(balance)}`}
      </button>
      {error && <p role="alert" className="form-error">{error}</p>}
    </>
  );
}

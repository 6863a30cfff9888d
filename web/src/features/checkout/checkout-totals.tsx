import type { PaymentMode } from '../../generated/PaymentMode';
import type { Quote } from '../../generated/Quote';
import { balanceDueWords } from '../../lib/balance-due';
import { formatMoney } from '../../lib/money';
import type { AppliedDiscount } from './discount-code';

/**
 * The discount summary, 'Your training total', 'Booking fee' and what
 * is left to pay, and when (`balanceDueOn`, never a day already past): a
 * booking whose training starts within 14 days owes its balance today.
 */
export function CheckoutTotals({ figures, mode, discount, onRemoveDiscount, balanceDueOn, dueAtOnce, today }: {
  figures: Quote;
  mode: PaymentMode;
  discount: AppliedDiscount | null;
  onRemoveDiscount: () => void;
  balanceDueOn: string | null;
  dueAtOnce: boolean;
  today: string;
}) {
  const due = dueAtOnce
    ? 'due today, as your training starts within 14 days: pay it with the link in your confirmation email'
    : balanceDueWords(balanceDueOn, today);
  return (
    <dl className="checkout-totals">
      <div>
        <dt>Your training total</dt>
        <dd>{formatMoney(figures.subtotal)}</dd>
      </div>
      {discount && (
        <>
          <div className="discount-summary">
            <dt>{`Discount code ${discount.code}`}</dt>
            <dd>
              {formatMoney(-figures.discount)}{' '}
              <button type="button" className="link-button" onClick={onRemoveDiscount}>
                Remove <span className="visually-hidden">{`discount code ${discount.code}`}</span>
              </button>
            </dd>
          </div>
          <div>
            <dt>Total after discount</dt>
            <dd>{formatMoney(figures.total)}</dd>
          </div>
        </>
      )}
      <div>
        <dt>Booking fee</dt>
        <dd>
          {formatMoney(figures.deposit)}{' '}
          <span className="totals-note">
            {mode === 'fee' ? 'Paid today to secure your place' : 'Included in your full payment'}
          </span>
        </dd>
      </div>
      {mode === 'fee' ? (
        figures.balance > 0 && (
          <div>
            <dt>Balance</dt>
            <dd>
              {formatMoney(figures.balance)}{' '}
              <span className="totals-note">{due}</span>
            </dd>
          </div>
        )
      ) : (
        <div>
          <dt>Paying in full today</dt>
          <dd>{formatMoney(figures.total)}</dd>
        </div>
      )}
    </dl>
  );
}

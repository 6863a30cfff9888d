import type { AccountData } from '../../../generated/AccountData';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { paymentMethodLabel } from '../../../lib/payment-methods';

/** §3 Payment: every payment, newest first. */
export function Payments({ data }: { data: AccountData }) {
  if (data.payments.length === 0) return <p>You have made no payments yet.</p>;
  return (
    <table className="order-lines">
      <caption>Your payments</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Method</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {data.payments.map((payment) => (
          <tr key={payment.id}>
            <td>{formatShortDate(payment.createdAt)}</td>
            <td>{paymentMethodLabel(payment.method)}</td>
            <td>{formatMoney(payment.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

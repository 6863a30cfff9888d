import type { AccountData } from '../../../generated/AccountData';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { paymentMethodLabel } from '../../../lib/payment-methods';

/** A receipt's or credit note's print-ready page, opened by its owner's session (decision 016). */
const documentPath = (number: string) => `/api/account/receipts/${encodeURIComponent(number)}`;

/** Every payment, newest first, with its receipt and the credit notes of what was refunded of it. */
export function Payments({ data }: { data: AccountData }) {
  if (data.payments.length === 0) return <p>You have made no payments yet.</p>;
  return (
    <table className="order-lines">
      <caption>Your payments</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Method</th>
          <th scope="col">Receipt</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {data.payments.map((payment) => (
          <tr key={payment.id}>
            <td>{formatShortDate(payment.createdAt)}</td>
            <td>{paymentMethodLabel(payment.method)}</td>
            <td className="payment-documents">
              {payment.receipt === null ? 'None issued' : <a href={documentPath(payment.receipt)}>{`Receipt ${payment.receipt}`}</a>}
              {payment.creditNotes.map((note) => (
                <a key={note.number} href={documentPath(note.number)}>{`Credit note ${note.number}: ${formatMoney(note.amount)} refunded`}</a>
              ))}
            </td>
            <td>{formatMoney(payment.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

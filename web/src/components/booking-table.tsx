import type { ReactNode } from 'react';
import { Link } from '../lib/router';
import type { EnrollmentLine } from '../generated/EnrollmentLine';
import { balanceDueWords } from '../lib/balance-due';
import { formatMoney } from '../lib/money';
import { bookedDateLabel } from '../lib/sessions';

export interface Booking {
  lines: EnrollmentLine[];
  /** Pence taken off by a discount code, when known. */
  discount?: number;
  total: number;
  paid: number;
  balance: number;
  balanceDueOn: string | null;
}

/**
 * A booking's courses, dates and prices, with its total, what is paid and
 * the balance and its due date (as of `today`, a London day: never past).
 */
export function BookingTable({ caption, booking, today }: { caption: ReactNode; booking: Booking; today: string }) {
  const { lines, discount = 0, total, paid, balance, balanceDueOn } = booking;
  return (
    <table className="order-lines">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Course</th>
          <th scope="col">Date</th>
          <th scope="col">Price</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => (
          <tr key={index}>
            <td>
              <Link to={line.courseUrl}>{line.title}</Link>
              {line.kitName && (
                <>
                  {' '}
                  <span className="order-line-note">{`With the ${line.kitName}`}</span>
                </>
              )}
            </td>
            <td>{bookedDateLabel(line)}</td>
            <td>{formatMoney(line.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {discount > 0 && (
          <tr>
            <th scope="row" colSpan={2}>Discount</th>
            <td>{formatMoney(-discount)}</td>
          </tr>
        )}
        <tr>
          <th scope="row" colSpan={2}>Total</th>
          <td>{formatMoney(total)}</td>
        </tr>
        <tr>
          <th scope="row" colSpan={2}>Paid</th>
          <td>{formatMoney(paid)}</td>
        </tr>
        {balance > 0 && (
          <tr>
            <th scope="row" colSpan={2}>
              {`Balance ${balanceDueWords(balanceDueOn, today)}`}
            </th>
            <td>{formatMoney(balance)}</td>
          </tr>
        )}
      </tfoot>
    </table>
  );
}

import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import type { EnrolmentLine } from '../../generated/EnrolmentLine';
import type { EnrolmentPage as EnrolmentData } from '../../generated/EnrolmentPage';
import type { Page } from '../../generated/Page';
import { formatSessionDate } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { sessionTypeLabel } from '../../lib/sessions';
import { removeItem } from '../../lib/storage';
import { usePendingPage } from '../../lib/use-pending-page';
import { useBasket } from '../basket/basket-context';
import { ORDER_ID_KEY } from './place-order';

const isPending = (enrolment: EnrolmentData) => enrolment.status === 'pending';
const readEnrolment = (page: Page): EnrolmentData | null => (page.kind === 'enrolment' ? page : null);

/** Tuesday 15th December · On site, or 'Date to be arranged'. */
function dateOf(line: EnrolmentLine): string {
  if (!line.date) return 'Date to be arranged';
  const date = formatSessionDate(line.date);
  return line.sessionType ? `${date} · ${sessionTypeLabel(line.sessionType)}` : date;
}

// A buy-now-pay-later payment may come without the checkout's contact details.
function confirmationText({ givenName, email }: EnrolmentData): string {
  const thanks = givenName ? `Thank you, ${givenName}.` : 'Thank you.';
  return email
    ? `${thanks} We have emailed your booking confirmation to ${email}.`
    : `${thanks} Please keep your booking reference below.`;
}

function Booking({ enrolment }: { enrolment: EnrolmentData }) {
  return (
    <table className="order-lines">
      <caption>Your booking</caption>
      <thead>
        <tr>
          <th scope="col">Course</th>
          <th scope="col">Date</th>
          <th scope="col">Price</th>
        </tr>
      </thead>
      <tbody>
        {enrolment.lines.map((line, index) => (
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
            <td>{dateOf(line)}</td>
            <td>{formatMoney(line.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {enrolment.discount > 0 && (
          <tr>
            <th scope="row" colSpan={2}>Discount</th>
            <td>{formatMoney(-enrolment.discount)}</td>
          </tr>
        )}
        <tr>
          <th scope="row" colSpan={2}>Total</th>
          <td>{formatMoney(enrolment.total)}</td>
        </tr>
        <tr>
          <th scope="row" colSpan={2}>Paid</th>
          <td>{formatMoney(enrolment.paid)}</td>
        </tr>
        {enrolment.balance > 0 && (
          <tr>
            <th scope="row" colSpan={2}>
              {enrolment.balanceDueOn ? `Balance due by ${formatSessionDate(enrolment.balanceDueOn)}` : 'Balance'}
            </th>
            <td>{formatMoney(enrolment.balance)}</td>
          </tr>
        )}
      </tfoot>
    </table>
  );
}

/**
 * `/enrolment/{orderId}`, where the payment provider sends the visitor back.
 * It shows the server's records; the basket is emptied only once the server
 * says the payment went through, and a failed payment goes back to checkout.
 */
export function EnrolmentPage({ page }: { page: EnrolmentData }) {
  const { page: enrolment, gaveUp } = usePendingPage(page, isPending, readEnrolment);
  const { restored, emptyBasket } = useBasket();
  const navigate = useNavigate();
  const { status } = enrolment;
  const confirmed = status === 'deposit' || status === 'completed';

  useEffect(() => {
    if (!confirmed || !restored) return;
    emptyBasket();
    removeItem('local', ORDER_ID_KEY);
  }, [confirmed, restored, emptyBasket]);

  useEffect(() => {
    if (status === 'failed') void navigate('/checkout/?status=failed', { replace: true });
  }, [status, navigate]);

  return (
    <div className="container order-page">
      <h1>{confirmed ? "You're enrolled" : 'Confirming your payment'}</h1>
      <div role="status" className="order-status">
        {confirmed ? (
          <p>{confirmationText(enrolment)}</p>
        ) : status === 'failed' ? (
          <p>Your payment did not go through. Taking you back to the checkout.</p>
        ) : gaveUp ? (
          <p>
            Your payment is taking longer than usual to confirm. We will email your booking confirmation once the
            payment is confirmed. If you have any questions, <Link to="/contact/">contact us</Link>.
          </p>
        ) : (
          <p>
            <span className="spinner" aria-hidden="true" />
            We are waiting for the payment provider to confirm your payment. This page updates by itself.
          </p>
        )}
      </div>
      <p className="order-reference">{`Booking reference: ${enrolment.orderId}`}</p>
      {confirmed && (
        <>
          <Booking enrolment={enrolment} />
          <section aria-labelledby="enrolment-next-title">
            <h2 id="enrolment-next-title">What happens next</h2>
            <ul className="order-next">
              <li>Your booking confirmation, with the course times and what to bring, is on its way by email.</li>
              {enrolment.balance > 0 && <li>We will remind you before the balance is due.</li>}
              <li>
                Questions about your booking? <Link to="/contact/">Contact us</Link> and quote your booking reference.
              </li>
            </ul>
          </section>
        </>
      )}
    </div>
  );
}

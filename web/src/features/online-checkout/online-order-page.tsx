import { useEffect } from 'react';
import { Link } from '../../lib/router';
import type { OnlineOrderPage as OnlineOrderData } from '../../generated/OnlineOrderPage';
import type { Page } from '../../generated/Page';
import { PaymentStatus, type PaymentState } from '../../components/payment-status';
import { formatMoney } from '../../lib/money';
import { usePendingPage } from '../../lib/use-pending-page';
import { useBasket } from '../../lib/basket';
import { useAuth } from '../../lib/auth';

// /e-learning/order/{id}/, shown only to the browser that bought (decision
// 009): it reads the order's state as the webhooks left it, and never
// fulfils. `processing` is a checkout whose payment takes a while to arrive
// (a bank debit, say): it is waited for like `pending`. A paid course is
// ready at once (decision 025): a signed-in buyer finds it in the account,
// and a buyer without one opens the mailed link that starts it.

const isPending = (order: OnlineOrderData) => order.status === 'pending' || order.status === 'processing';
const readOrder = (page: Page): OnlineOrderData | null => (page.kind === 'onlineOrder' ? page : null);

function OrderLines({ order }: { order: OnlineOrderData }) {
  return (
    <table className="order-lines">
      <caption>Your order</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Price</th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line, index) => (
          <tr key={index}>
            <td>{line.courseUrl ? <Link to={line.courseUrl}>{line.title}</Link> : line.title}</td>
            <td>{formatMoney(line.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td>{formatMoney(order.total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

const HEADINGS: Record<OnlineOrderData['status'], string> = {
  pending: 'Confirming your payment',
  processing: 'Confirming your payment',
  paid: 'Thank you for your order',
  failed: 'Your payment did not go through',
};

const STATES: Record<OnlineOrderData['status'], PaymentState> = {
  pending: 'waiting',
  processing: 'arriving',
  paid: 'confirmed',
  failed: 'failed',
};

/**
 * The way into the course: the account the order joined, or, for a buyer
 * without one, the link mailed to them that makes it (decision 025). Said
 * once the session is known, so the server's page and the first render
 * say nothing either way.
 */
function StartCourse({ order }: { order: OnlineOrderData }) {
  const { loading, user } = useAuth();
  if (loading) return null;
  if (user) {
    return (
      <li>
        <Link to="/account/online-courses/">Start your course</Link> from your account.
      </li>
    );
  }
  const email = order.email ?? 'the email address you paid with';
  if (!order.inAccount) {
    return (
      <li>
        {`Start your course from the link we have emailed to ${email}: it works once and lets you choose your password. Can't find it? Check your spam folder, or `}
        <Link to="/contact/">contact us</Link>.
      </li>
    );
  }
  return (
    <li>
      {`Your course waits in your account for ${email}: `}
      <Link to="/sign-in/">sign in</Link> to start.
    </li>
  );
}

/**
 * Where an e-learning buyer lands after the payment page. The online basket
 * is emptied only once the server says the order is paid; a failed payment
 * leaves it as it was, to try again.
 */
export function OnlineOrderPage({ page }: { page: OnlineOrderData }) {
  const { page: order, gaveUp } = usePendingPage(page, isPending, readOrder);
  const { restored, emptyOnlineBasket } = useBasket();
  const paid = order.status === 'paid';

  useEffect(() => {
    if (paid && restored) emptyOnlineBasket();
  }, [paid, restored, emptyOnlineBasket]);

  return (
    <div className="container order-page">
      <PaymentStatus
        state={STATES[order.status]}
        gaveUp={gaveUp}
        heading={HEADINGS[order.status]}
        confirmed={
          order.email
            ? `Your course is ready. We have emailed your receipt to ${order.email}.`
            : 'Your payment is confirmed, and your course is ready.'
        }
        failed={
          <>
            Nothing has been charged, and the courses are not yours yet. You can try again from our{' '}
            <Link to="/courses/elearning/">e-learning courses</Link>.
          </>
        }
        mailed="receipt"
        arriving="Your payment is on its way: some payment methods take a few days to arrive. Your course will be ready once it has, and we will email your receipt."
        reference={['Order reference', order.reference]}
      />
      <OrderLines order={order} />
      {paid && (
        <section aria-labelledby="order-next-title">
          <h2 id="order-next-title">What happens next</h2>
          <ul className="order-next">
            <StartCourse order={order} />
            <li>
              Need help with your course or your order? <Link to="/contact/">Contact us</Link> and quote your order
              reference.
            </li>
          </ul>
        </section>
      )}
    </div>
  );
}

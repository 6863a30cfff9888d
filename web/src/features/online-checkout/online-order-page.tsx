import { useEffect } from 'react';
import { Link } from 'react-router';
import type { OnlineOrderPage as OnlineOrderData } from '../../generated/OnlineOrderPage';
import type { Page } from '../../generated/Page';
import { PaymentStatus, type PaymentState } from '../../components/payment-status';
import { formatMoney } from '../../lib/money';
import { usePendingPage } from '../../lib/use-pending-page';
import { useBasket } from '../../lib/basket';

// /e-learning/order/{id}/, shown only to the browser that bought (decision
// 009): it reads the order's state as the webhooks left it, and never
// fulfils. `processing` is a checkout whose payment takes a while to arrive
// (a bank debit, say): it is waited for like `pending`.

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
        confirmed={order.email ? `We have emailed your receipt and course access to ${order.email}.` : 'Your payment is confirmed.'}
        failed={
          <>
            Nothing has been charged, and the courses are not yours yet. You can try again from our{' '}
            <Link to="/courses/elearning/">e-learning courses</Link>.
          </>
        }
        mailed="receipt"
        arriving="Your payment is on its way: some payment methods take a few days to arrive. We will email your receipt and course access once it has."
        reference={['Order reference', order.reference]}
      />
      <OrderLines order={order} />
      {paid && (
        <section aria-labelledby="order-next-title">
          <h2 id="order-next-title">What happens next</h2>
          <ul className="order-next">
            <li>Your course access arrives by email. If you cannot see it, please check your junk folder.</li>
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

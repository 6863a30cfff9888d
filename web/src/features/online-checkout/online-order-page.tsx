import { useEffect } from 'react';
import { Link } from 'react-router';
import type { OnlineOrderPage as OnlineOrderData } from '../../generated/OnlineOrderPage';
import type { Page } from '../../generated/Page';
import { formatMoney } from '../../lib/money';
import { usePendingPage } from '../../lib/use-pending-page';
import { useBasket } from '../basket/basket-context';

const isPending = (order: OnlineOrderData) => order.status === 'pending';
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

/**
 * Where an e-learning buyer lands after the payment page. The online basket
 * is emptied only once the server says the order is paid.
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
      <h1>{paid ? 'Thank you for your order' : 'Confirming your payment'}</h1>
      <div role="status" className="order-status">
        {paid ? (
          <p>
            {order.email
              ? `We have emailed your receipt and course access to ${order.email}.`
              : 'Your payment is confirmed.'}
          </p>
        ) : gaveUp ? (
          <p>
            Your payment is taking longer than usual to confirm. We will email your receipt once the payment is
            confirmed. If you have any questions, <Link to="/contact/">contact us</Link>.
          </p>
        ) : (
          <p>
            <span className="spinner" aria-hidden="true" />
            We are waiting for the payment provider to confirm your payment. This page updates by itself.
          </p>
        )}
      </div>
      <p className="order-reference">{`Order reference: ${order.orderId}`}</p>
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

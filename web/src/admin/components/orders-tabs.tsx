import { Link } from 'react-router';
import { paths } from '../paths';

// The orders area holds two kinds (decisions 017 and 027): bookings of
// dated sessions and online orders of e-learning, each found on its own
// tab, as shops such as Shopify keep their order kinds side by side.

export function OrdersTabs({ current }: { current: 'bookings' | 'online' }) {
  return (
    <nav aria-label="Kinds of order" className="view-switch">
      <Link to={paths.orders} aria-current={current === 'bookings' ? 'page' : undefined}>Bookings</Link>
      <Link to={paths.onlineOrders} aria-current={current === 'online' ? 'page' : undefined}>Online orders</Link>
    </nav>
  );
}

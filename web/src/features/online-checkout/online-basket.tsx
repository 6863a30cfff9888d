import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { useBasket } from '../../lib/basket';
import { returnedCancelled } from './checkout-return';

// Most visitors never open the online basket: its drawer's code loads the
// first time it opens (decision 012), or when a buyer comes back from the
// payment page without paying, which opens it. It is never in the server's
// HTML, so nothing hydrates against it.
const OnlineBasketDrawer = lazy(() => import('./online-basket-drawer').then(({ OnlineBasketDrawer }) => ({ default: OnlineBasketDrawer })));

/** §2 the online basket drawer, once it is wanted. */
export function OnlineBasket() {
  const { onlineBasket } = useBasket();
  const cancelled = returnedCancelled(useLocation().search);
  return (onlineBasket || cancelled) && (
    <Suspense fallback={null}>
      <OnlineBasketDrawer />
    </Suspense>
  );
}

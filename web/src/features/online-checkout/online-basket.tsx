import { lazy, Suspense } from 'react';
import { useLocation } from '../../lib/router';
import { useBasket } from '../../lib/basket';
import { returnedCancelled } from './checkout-return';

// Most visitors never open the online basket: its drawer's code loads the
// first time it opens (decision 012), or when a buyer comes back from the
// payment page without paying, which opens it once the basket is restored.
// It is never in the server's HTML (a lazy part there would fail the
// render), so nothing hydrates against it.
const OnlineBasketDrawer = lazy(() => import('./online-basket-drawer').then(({ OnlineBasketDrawer }) => ({ default: OnlineBasketDrawer })));

/** The online basket drawer, once it is wanted. */
export function OnlineBasket() {
  const { onlineBasket, restored } = useBasket();
  const cancelled = returnedCancelled(useLocation().search);
  return (onlineBasket || (restored && cancelled)) && (
    <Suspense fallback={null}>
      <OnlineBasketDrawer />
    </Suspense>
  );
}

import { useBasket } from '../../lib/basket';

/** 'A', 'A and B', 'A, B and C'. */
function titles(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
}

/**
 * A mixed basket (docs/product.md#baskets): the online courses are bought from their own basket,
 * the Order Summary drawer, not on this page; the checkout says they are
 * waiting there and opens it.
 */
export function OnlineBasketNotice() {
  const { onlineCourses, setOnlineBasket } = useBasket();
  if (onlineCourses.length === 0) return null;
  const waiting = titles(onlineCourses.map((course) => course.title));
  return (
    <div className="online-basket-notice">
      <p>
        {`${waiting} ${onlineCourses.length === 1 ? 'is' : 'are'} waiting in your online basket. `}
        Online courses are paid for there, apart from this checkout.
      </p>
      <button type="button" className="button button-secondary" aria-haspopup="dialog" onClick={() => setOnlineBasket(true)}>
        Open the online basket
      </button>
    </div>
  );
}

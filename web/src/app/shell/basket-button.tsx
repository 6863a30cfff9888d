import { useEffect, useState } from 'react';
import { Link } from '../../lib/router';
import { BasketIcon } from '../../components/ui/icons';
import { useBasket } from '../../lib/basket';

// The count shows after a 1000 ms delay (docs/product.md#pages).
export const BASKET_COUNT_DELAY_MS = 1000;

/**
 * The header's basket icon (docs/product.md#baskets): with in-person courses selected (or an empty basket) the icon
 * links to the checkout; with only online courses it toggles their drawer.
 */
export function BasketButton() {
  const { selectedCourses, onlineCourses, onlineBasket, setOnlineBasket } = useBasket();
  const count = selectedCourses.length + onlineCourses.length;
  const [shownCount, setShownCount] = useState(0);

  useEffect(() => {
    const timer = setTimeout(() => setShownCount(count), BASKET_COUNT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [count]);

  const badge = shownCount > 0 && <span className="basket-count" aria-hidden="true">{shownCount}</span>;
  // The delay is for the eye: the name says what the badge will, at once,
  // so a screen reader that reads the header as the page loads hears it too.
  const label = `Basket, ${count} ${count === 1 ? 'course' : 'courses'}`;

  if (selectedCourses.length === 0 && onlineCourses.length > 0) {
    return (
      <button
        type="button"
        className="icon-button basket-button"
        aria-expanded={onlineBasket}
        aria-controls="online-basket"
        onClick={() => setOnlineBasket(!onlineBasket)}
      >
        <BasketIcon />
        {badge}
        <span className="visually-hidden">{label}</span>
      </button>
    );
  }
  return (
    <Link to="/checkout/" className="icon-button basket-button">
      <BasketIcon />
      {badge}
      <span className="visually-hidden">{label}</span>
    </Link>
  );
}

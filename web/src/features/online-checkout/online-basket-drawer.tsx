import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation } from '../../lib/router';
import { Picture } from '../../components/ui/image';
import { CloseIcon } from '../../components/ui/icons';
import { useModal } from '../../components/ui/use-modal';
import { failureMessage } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { reportError } from '../../lib/report-error';
import { returnedCancelled } from './checkout-return';
import { createCheckout } from './create-checkout';
import { OnlineAgreement, useOnlineAgreement } from './online-agreement';
import { ACCEPTED_METHODS, PaymentBadge } from './payment-badges';
import { useBasket } from '../../lib/basket';
import { onlineBasketTotal, type OnlineCourse } from '../../lib/basket-items';

const NOT_STARTED = "We couldn't start the payment. Please try again.";
const ACCEPTED = `We accept ${ACCEPTED_METHODS.slice(0, -1).join(', ')} and ${ACCEPTED_METHODS[ACCEPTED_METHODS.length - 1]}.`;

function Upsell({ course, onToggle }: { course: OnlineCourse; onToggle: () => void }) {
  const { upsell, upsellAdded } = course;
  if (!upsell) return null;
  return (
    <div className="upsell">
      <p className="upsell-title">{upsell.title}</p>
      <p className="upsell-description">{upsell.description}</p>
      <p className="upsell-foot">
        <strong className="upsell-price">{formatMoney(upsell.price_data.unit_amount)}</strong>
        <button type="button" className="button button-small" aria-pressed={upsellAdded} onClick={onToggle}>
          {upsellAdded ? 'Remove' : upsell.cta}{' '}
          <span className="visually-hidden">{`(add-on: ${upsell.title})`}</span>
        </button>
      </p>
    </div>
  );
}

/** The online basket drawer, titled Order Summary (docs/product.md#online-checkout). */
export function OnlineBasketDrawer() {
  const { onlineCourses, onlineBasket, restored, setOnlineBasket, removeOnlineCourse, toggleUpsell } = useBasket();
  const cancelled = returnedCancelled(useLocation().search);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const agreement = useOnlineAgreement();
  const close = () => {
    setOnlineBasket(false);
    setFailure(null);
  };
  const ref = useModal(onlineBasket, close);
  const total = onlineBasketTotal(onlineCourses);
  // The basket icon toggles the drawer, so the drawer opens below
  // the header (which stays on screen) and the icon stays there to close it.
  const overlay = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const header = document.querySelector('.site-header');
    if (onlineBasket && overlay.current && header) overlay.current.style.top = `${Math.max(0, header.getBoundingClientRect().bottom)}px`;
  }, [onlineBasket]);

  // Back from the payment page without paying: show the basket as it was.
  useEffect(() => {
    if (restored && cancelled) setOnlineBasket(true);
  }, [restored, cancelled, setOnlineBasket]);

  // Coming back with the Back button can restore this page as it was left,
  // mid-redirect; the buyer must be able to press Book Now again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLoading(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  async function bookNow() {
    if (loading) return;
    if (!agreement.check()) return;
    setLoading(true);
    setFailure(null);
    try {
      window.location.assign(await createCheckout(onlineCourses));
    } catch (error) {
      reportError(error, { action: 'create online checkout', courses: onlineCourses.map((course) => course.pricingId) });
      setLoading(false);
      setFailure(failureMessage(error, NOT_STARTED));
    }
  }

  if (!onlineBasket) return null;
  return (
    <div ref={overlay} className="overlay">
      <div ref={ref} id="online-basket" className="slide-in drawer" role="dialog" aria-modal="true" aria-labelledby="online-basket-title">
        <div className="slide-in-head">
          <h2 id="online-basket-title">Order Summary</h2>
          <button type="button" className="icon-button" onClick={close}>
            <CloseIcon />
            <span className="visually-hidden">Close basket</span>
          </button>
        </div>
        {cancelled && !failure && <p className="drawer-note">Payment cancelled — nothing was charged.</p>}
        {onlineCourses.length === 0 ? (
          <p className="drawer-empty">You have not added any online courses to your basket</p>
        ) : (
          <ul className="drawer-items">
            {onlineCourses.map((course) => (
              <li key={course.url} className="drawer-item">
                <Picture image={course.image} sizes="96px" maxDisplay={96} decorative />
                <div>
                  <h3>{course.title}</h3>
                  <p className="price">
                    {course.wasPrice !== null && <s className="was-price">{`Was ${formatMoney(course.wasPrice)}`}</s>}{' '}
                    {formatMoney(course.unitAmount)}
                  </p>
                  <p className="drawer-actions">
                    <Link to={course.url} onClick={close}>View Course Details</Link>
                    <button type="button" className="link-button" onClick={() => removeOnlineCourse(course.url)}>
                      Remove{' '}<span className="visually-hidden">{course.title}</span>
                    </button>
                  </p>
                </div>
                <Upsell course={course} onToggle={() => toggleUpsell(course.url)} />
              </li>
            ))}
          </ul>
        )}
        <p className="drawer-total">
          <span>Total</span>
          <strong>{formatMoney(total)}</strong>
        </p>
        {failure && <p role="alert" className="drawer-alert">{failure}</p>}
        {onlineCourses.length > 0 && <OnlineAgreement agreement={agreement} />}
        <div className="drawer-buttons">
          {onlineCourses.length > 0 && (
            <button type="button" className="button button-wide" aria-disabled={loading} onClick={() => void bookNow()}>
              {loading ? (
                <>
                  <span className="spinner" aria-hidden="true" />
                  Processing
                </>
              ) : (
                'Book Now'
              )}
            </button>
          )}
          <button type="button" className="button button-secondary button-wide" onClick={close}>Continue browsing</button>
        </div>
        <p role="status" className="visually-hidden">{loading ? 'Taking you to the secure payment page' : ''}</p>
        <p className="visually-hidden">{ACCEPTED}</p>
        <ul className="payment-badges" aria-hidden="true">
          {ACCEPTED_METHODS.map((method) => (
            <li key={method}><PaymentBadge method={method} /></li>
          ))}
        </ul>
      </div>
    </div>
  );
}

import { Link } from 'react-router';
import { Picture } from '../../components/ui/image';
import { CloseIcon } from '../../components/ui/icons';
import { useModal } from '../../components/ui/use-modal';
import { formatMoney } from '../../lib/money';
import { useBasket } from './basket-context';

/** §2 Online basket drawer, titled Order Summary. */
export function OnlineBasketDrawer() {
  const { onlineCourses, onlineBasket, setOnlineBasket, removeOnlineCourse } = useBasket();
  const close = () => setOnlineBasket(false);
  const ref = useModal(onlineBasket, close);
  const total = onlineCourses.reduce((sum, course) => sum + course.unitAmount, 0);

  if (!onlineBasket) return null;
  return (
    <div className="overlay" onClick={(event) => event.target === event.currentTarget && close()}>
      <div ref={ref} id="online-basket" className="slide-in drawer" role="dialog" aria-modal="true" aria-labelledby="online-basket-title">
        <div className="slide-in-head">
          <h2 id="online-basket-title">Order Summary</h2>
          <button type="button" className="icon-button" onClick={close}>
            <CloseIcon />
            <span className="visually-hidden">Close basket</span>
          </button>
        </div>
        {onlineCourses.length === 0 ? (
          <div className="drawer-empty">
            <p>You have not added any online courses to your basket</p>
            <button type="button" className="button" onClick={close}>Continue browsing</button>
          </div>
        ) : (
          <>
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
                        Remove<span className="visually-hidden">{` ${course.title}`}</span>
                      </button>
                    </p>
                  </div>
                </li>
              ))}
            </ul>
            <p className="drawer-total">
              <span>Total</span>
              <strong>{formatMoney(total)}</strong>
            </p>
            <button type="button" className="button button-secondary" onClick={close}>Continue browsing</button>
          </>
        )}
      </div>
    </div>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { Link } from '../../lib/router';
import { SessionChoices } from '../../components/session-choices';
import type { CoursePage } from '../../generated/CoursePage';
import { kitChoiceLabel, kitNote, pricedKit } from '../../lib/kits';
import { hasFreeSeat, sessionLabel } from '../../lib/sessions';
import { useBasket } from '../../lib/basket';
import { trackAddedCourse } from './track-added-course';

type Added = null | 'in-person' | 'online' | 'date-changed';

/**
 * In-person courses go to the selected courses (enrolled on the checkout
 * page) with a chosen date; online courses go to the online basket.
 */
export function AddToBasket({ course }: { course: CoursePage }) {
  const basket = useBasket();
  const id = useId();
  const sessions = course.sessions.filter(hasFreeSeat);
  const [sessionId, setSessionId] = useState(sessions[0]?.id ?? '');
  const [includeKit, setIncludeKit] = useState(false);
  const [added, setAdded] = useState<Added>(null);
  const kitChoice = pricedKit(course.kit);
  const image = course.images[0] ?? { url: '', alt: '', width: 0, height: 0 };

  // One place per course in the basket (the server refuses a course twice):
  // choosing another date of a course already there changes its date.
  const existing = course.online ? undefined : basket.selectedCourses.find((c) => c.url === course.url);
  const existingSession = existing?.selectedEvent ? course.sessions.find((s) => s.id === existing.selectedEvent?.id) : undefined;
  const inBasket = course.online
    ? basket.onlineCourses.some((c) => c.url === course.url)
    : existing !== undefined && (existing.selectedEvent?.id ?? '') === sessionId;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (course.online) {
      basket.addOnlineCourse({
        courseId: course.id, title: course.title, url: course.url, image,
        pricingId: course.pricing.id, unitAmount: course.pricing.unit_amount, wasPrice: course.wasPrice,
        upsell: course.upsell, upsellAdded: false,
      });
      trackAddedCourse({ id: course.id, title: course.title, url: course.url, price: course.pricing.unit_amount });
      setAdded('online');
      return;
    }
    const session = sessions.find((s) => s.id === sessionId) ?? null;
    const price = session?.price ?? course.pricing.unit_amount;
    const kitPounds = kitChoice !== null && includeKit ? kitChoice.pricePounds : null;
    const item = {
      courseId: course.id, title: course.title, url: course.url, image,
      price, wasPrice: course.wasPrice, isPackage: course.isPackage,
      includeKit: kitPounds !== null,
      selectedEvent: session && { id: session.id, date: session.date, type: session.type, price: session.price },
    };
    if (existing) {
      basket.replaceCourses(basket.selectedCourses.map((c) => (c === existing ? item : c)));
      setAdded('date-changed');
      return;
    }
    basket.addCourses([item]);
    trackAddedCourse({ id: course.id, title: course.title, url: course.url, price: price + (kitPounds ?? 0) * 100 });
    setAdded('in-person');
  }

  const needsDate = !course.online && !course.isPackage && sessions.length === 0;
  if (needsDate) {
    return (
      <div className="no-dates">
        <p>All current dates are fully booked. New dates are added every month.</p>
        <p><Link to="/request-a-callback/" className="button button-secondary">Ask about the next date</Link></p>
      </div>
    );
  }

  return (
    <form className="add-to-basket" onSubmit={submit} action="/checkout/" method="get">
      {!course.online && sessions.length > 0 && (
        <SessionChoices
          name="session"
          sessions={sessions}
          chosen={sessionId}
          onChoose={(session) => {
            setSessionId(session.id);
            setAdded(null);
          }}
        />
      )}
      {kitChoice && (
        <div className="field checkbox">
          <input id={`${id}-kit`} type="checkbox" name="kit" checked={includeKit} onChange={(event) => setIncludeKit(event.target.checked)} />
          <label htmlFor={`${id}-kit`}>{kitChoiceLabel(kitChoice)}</label>
        </div>
      )}
      {course.kit && !kitChoice && <p className="kit-note">{kitNote(course.kit)}</p>}
      {existing && !inBasket && added === null && (
        <p className="kit-note">
          {`${course.title} is already in your basket${existingSession ? ` for ${sessionLabel(existingSession)}` : ''}. Change it to the date chosen above, or `}
          <Link to="/checkout/">go to checkout</Link>.
        </p>
      )}
      <button type="submit" className="button button-wide" disabled={inBasket}>
        {inBasket ? 'In your basket' : course.online ? 'Add to basket' : existing ? 'Change to this date' : 'Add to basket and enrol'}
      </button>
      <p role="status" className="added-status">
        {added === 'in-person' && (
          <>
            {`${course.title} is in your basket. `}
            <Link to="/checkout/">Go to checkout</Link>
          </>
        )}
        {added === 'date-changed' && (
          <>
            {`${course.title} is in your basket for the new date. `}
            <Link to="/checkout/">Go to checkout</Link>
          </>
        )}
        {added === 'online' && (
          <>
            {`${course.title} is in your online basket. `}
            <button type="button" className="link-button" onClick={() => basket.setOnlineBasket(true)}>View basket</button>
          </>
        )}
      </p>
    </form>
  );
}

import { useId } from 'react';
import { Link } from '../../lib/router';
import { SessionChoices } from '../../components/session-choices';
import type { Session } from '../../generated/Session';
import { kitChoiceLabel, kitNote, pricedKit } from '../../lib/kits';
import { formatMoney } from '../../lib/money';
import { sessionLabel } from '../../lib/sessions';
import type { SelectedCourse } from '../../lib/basket-items';
import { withSession, type CheckoutRow } from './checkout-lines';

function SelectedCourseRow({ row, onSession, onKit, onRemove }: {
  row: CheckoutRow;
  onSession: (session: Session) => void;
  onKit: (includeKit: boolean) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const { course, line } = row;
  const kit = pricedKit(line.kit);
  const session = line.sessions.find((s) => s.id === course.selectedEvent?.id);
  return (
    <li className="checkout-line">
      <h3>
        <Link to={line.url}>{course.title}</Link>
      </h3>
      <p className="price">
        {course.wasPrice !== null && <s className="was-price">{`Was ${formatMoney(course.wasPrice)}`}</s>}{' '}
        {formatMoney(course.price)}
      </p>
      {line.sessions.length > 1 ? (
        <SessionChoices sessions={line.sessions} chosen={session?.id ?? ''} onChoose={onSession} />
      ) : (
        session && <p className="checkout-line-date">{sessionLabel(session)}</p>
      )}
      {kit ? (
        <div className="field checkbox">
          <input
            id={`${id}-kit`}
            type="checkbox"
            checked={course.includeKit}
            onChange={(event) => onKit(event.target.checked)}
          />
          <label htmlFor={`${id}-kit`}>{kitChoiceLabel(kit)}</label>
        </div>
      ) : (
        line.kit && <p className="kit-note">{kitNote(line.kit)}</p>
      )}
      <button type="button" className="link-button checkout-line-remove" onClick={onRemove}>
        Remove <span className="visually-hidden">{course.title}</span>
      </button>
    </li>
  );
}

/** 'Your selected courses', each with its date, kit and a remove button. */
export function SelectedCourseList({ rows, onChange, onRemove }: {
  rows: CheckoutRow[];
  onChange: (course: SelectedCourse, changed: SelectedCourse) => void;
  onRemove: (course: SelectedCourse) => void;
}) {
  return (
    <ul className="checkout-lines">
      {rows.map((row, index) => (
        <SelectedCourseRow
          key={`${row.course.courseId}-${index}`}
          row={row}
          onSession={(session) => onChange(row.course, withSession(row.course, session))}
          onKit={(includeKit) => onChange(row.course, { ...row.course, includeKit })}
          onRemove={() => onRemove(row.course)}
        />
      ))}
    </ul>
  );
}

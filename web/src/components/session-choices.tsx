import { useId } from 'react';
import type { Session } from '../generated/Session';
import { formatMoney } from '../lib/money';
import { seatsLeft, sessionLabel } from '../lib/sessions';

// A course's dates as a list of choices rather than a select: a select's
// closed box cuts its text to its width, and on a 320 px phone a date's
// price and seats left were cut off (WCAG 1.4.10). Each choice wraps instead.

/** 'Select course date:', one choice per session, each with its day, kind, price and seats left. */
export function SessionChoices({ sessions, chosen, onChoose, name }: {
  sessions: Session[];
  /** The chosen session's id. */
  chosen: string;
  onChoose: (session: Session) => void;
  /** The form field's name, for a form sent without JavaScript; one of the page's own otherwise. */
  name?: string;
}) {
  const id = useId();
  return (
    <fieldset className="field session-choices">
      <legend>Select course date:</legend>
      {sessions.map((session) => (
        <label key={session.id} className="session-choice">
          <input
            type="radio"
            name={name ?? `${id}-session`}
            value={session.id}
            checked={session.id === chosen}
            onChange={() => onChoose(session)}
          />
          <span className="session-choice-date">{sessionLabel(session)}</span>{' '}
          <span className="session-choice-terms">
            <span className="session-price">{formatMoney(session.price)}</span>
            {' · '}
            <span className="session-seats">{seatsLeft(session)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

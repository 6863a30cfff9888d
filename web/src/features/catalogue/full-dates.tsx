import type { Session } from '../../generated/Session';
import { formatSessionDate } from '../../lib/dates';
import { sessionTypeLabel } from '../../lib/sessions';

/** The dates with no seat free, each with a link to its waiting list. */
export function FullDates({ sessions }: { sessions: Session[] }) {
  if (sessions.length === 0) return null;
  return (
    <section aria-labelledby="full-dates-title" className="full-dates">
      <h3 id="full-dates-title">Fully booked dates</h3>
      <p>Join the waiting list: if a seat frees, we offer it to the people waiting first, in the order they joined.</p>
      <ul>
        {sessions.map((session) => (
          <li key={session.id}>
            <span>{`${formatSessionDate(session.date)} (${sessionTypeLabel(session.type)})`}</span>
            <a href={`/waiting-list/join/?session=${encodeURIComponent(session.id)}`}>
              Join the waiting list <span className="visually-hidden">{`for ${formatSessionDate(session.date)}`}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

import { lazy, Suspense, useState } from 'react';
import type { Session } from '../../generated/Session';
import { formatSessionDate } from '../../lib/dates';
import { sessionTypeLabel } from '../../lib/sessions';

// The form loads when first asked for, so the course page's first
// JavaScript does not grow.
const WaitingListForm = lazy(() => import('./waiting-list-form'));

/** Issue 13: the dates with no seat free, each with its waiting list. */
export function FullDates({ sessions }: { sessions: Session[] }) {
  const [open, setOpen] = useState<string | null>(null);
  if (sessions.length === 0) return null;
  return (
    <section aria-labelledby="full-dates-title" className="full-dates">
      <h3 id="full-dates-title">Fully booked dates</h3>
      <p>Join the waiting list: if a seat frees, we offer it to the people waiting first, in the order they joined.</p>
      <ul>
        {sessions.map((session) => {
          const label = `${formatSessionDate(session.date)} (${sessionTypeLabel(session.type)})`;
          return (
            <li key={session.id}>
              <span>{label}</span>
              {open === session.id ? (
                <Suspense fallback={<p>Loading...</p>}>
                  <WaitingListForm sessionId={session.id} dateLabel={label} />
                </Suspense>
              ) : (
                <button type="button" className="link-button" onClick={() => setOpen(session.id)}>
                  Join the waiting list <span className="visually-hidden">{`for ${label}`}</span>
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

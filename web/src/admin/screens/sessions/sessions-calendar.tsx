import { formatMonth, formatSessionDate } from '../../../lib/dates';
import { sessionTypeLabel } from '../../../lib/sessions';
import { SeatsMeter } from '../../components/seats-meter';
import type { Session } from '../../lib/api-types';
import { SessionActions, type SessionLinks } from './sessions-table';
import { sessionStatusLabel } from './session-status';

/** Sessions grouped by month, then day, in date order. */
export function byMonthAndDay(sessions: readonly Session[]): [month: string, days: [day: string, sessions: Session[]][]][] {
  const months = new Map<string, Map<string, Session[]>>();
  const ordered = [...sessions].sort((a, b) => `${a.date} ${a.startTime}`.localeCompare(`${b.date} ${b.startTime}`));
  for (const session of ordered) {
    const month = session.date.slice(0, 7);
    const days = months.get(month) ?? new Map<string, Session[]>();
    days.set(session.date, [...(days.get(session.date) ?? []), session]);
    months.set(month, days);
  }
  return [...months].map(([month, days]) => [month, [...days]]);
}

/** The month calendar: a list of the days with sessions, one month after another, which reflows to one column on a phone. */
export function SessionsCalendar({ sessions, links }: { sessions: Session[]; links: SessionLinks }) {
  if (sessions.length === 0) return <p className="empty">No sessions match these filters.</p>;
  return byMonthAndDay(sessions).map(([month, days]) => (
    <section key={month} className="calendar-month" aria-labelledby={`month-${month}`}>
      <h2 id={`month-${month}`}>{formatMonth(month)}</h2>
      <ol className="calendar-days">
        {days.map(([day, onDay]) => (
          <li key={day} className="calendar-day">
            <h3>{formatSessionDate(day)}</h3>
            <ul>
              {onDay.map((session) => (
                <li key={session.id}>
                  <p className="session-title">{session.courseTitle}</p>
                  <p>{`${session.startTime}–${session.endTime} · ${sessionTypeLabel(session.type)} · ${sessionStatusLabel(session.status)}`}</p>
                  <SeatsMeter session={session} />
                  <SessionActions session={session} links={links} />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  ));
}

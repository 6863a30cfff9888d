import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import type { CalendarPage as CalendarData } from '../../generated/CalendarPage';
import { formatMonth, formatSessionDate, formatTime } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { seatsLeft, sessionTypeLabel } from '../../lib/sessions';

const PATH = '/training-course-calendar/';
const TYPES = [
  { value: '', label: 'All types' },
  { value: 'onsite', label: 'On site' },
  { value: 'virtual', label: 'Virtual' },
  { value: 'blended', label: 'Blended' },
];

function calendarUrl(section: string, type: string): string {
  const params = new URLSearchParams();
  if (section) params.set('section', section);
  if (type) params.set('type', type);
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

export function CalendarPage({ page }: { page: CalendarData }) {
  const navigate = useNavigate();
  const id = useId();
  const count = page.months.reduce((n, m) => n + m.sessions.length, 0);
  const go = (section: string, type: string) => void navigate(calendarUrl(section, type), { preventScrollReset: true });

  return (
    <div className="container">
      <h1>{page.heading}</h1>
      <p className="lead">Every date with seats available, month by month. Choose a date on the course page to book.</p>
      <form method="get" action={PATH} className="listing-controls" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-section`}>Course section</label>
          <select id={`${id}-section`} name="section" value={page.section} onChange={(event) => go(event.target.value, page.sessionType)}>
            <option value="">All sections</option>
            {page.sections.map((s) => <option key={s.slug} value={s.slug}>{s.title}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Session type</label>
          <select id={`${id}-type`} name="type" value={page.sessionType} onChange={(event) => go(page.section, event.target.value)}>
            {TYPES.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
          </select>
        </div>
        <noscript>
          <button type="submit" className="button">Filter</button>
        </noscript>
      </form>
      <p role="status" className="listing-count">{`${count} ${count === 1 ? 'date' : 'dates'} with seats available`}</p>
      {page.months.map((month) => (
        <section key={month.month} aria-labelledby={`month-${month.month}`} className="calendar-month">
          <h2 id={`month-${month.month}`}>{formatMonth(month.month)}</h2>
          <ul className="session-list">
            {month.sessions.map(({ session, courseTitle, courseUrl, sectionTitle }) => (
              <li key={session.id}>
                <p className="session-when">
                  {formatSessionDate(session.date)}
                  <span>{`${formatTime(session.start)} to ${formatTime(session.end)} · ${sessionTypeLabel(session.type)}`}</span>
                </p>
                <p className="session-course">
                  <Link to={courseUrl}>{courseTitle}</Link>
                  <span>{sectionTitle}</span>
                </p>
                <p className="session-seats">{seatsLeft(session)}</p>
                <p className="session-price">{formatMoney(session.price)}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {count === 0 && (
        <p>
          {'No dates match these filters. '}
          <Link to={PATH}>Show every date</Link>
        </p>
      )}
    </div>
  );
}

import { useId } from 'react';
import { Link, useNavigate } from '../../lib/router';
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

/** The calendar under `section` and `type`, from month `from` (the first page when empty). */
function calendarUrl(section: string, type: string, from = ''): string {
  // Written by hand: the server's renderer has no URLSearchParams.
  const query = Object.entries({ section, type, from })
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return query ? `${PATH}?${query}` : PATH;
}

export function CalendarPage({ page }: { page: CalendarData }) {
  const navigate = useNavigate();
  const id = useId();
  const count = page.total;
  const go = (section: string, type: string) => navigate(calendarUrl(section, type));
  const shown = new Set(page.months.map((m) => m.month));
  // The first month's page is the calendar's own address.
  const pageUrl = (month: string) => calendarUrl(page.section, page.sessionType, month === page.monthsListed[0] ? '' : month);

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
      {page.monthsListed.length > 1 && (
        <nav aria-label="Months" className="calendar-months">
          <ul>
            {page.monthsListed.map((month) => (
              <li key={month}>
                {/* Plain links: the anchor navigation routes them, and a month on this page is a jump within it. */}
                <a href={shown.has(month) ? `#month-${month}` : pageUrl(month)}>{formatMonth(month)}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
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
                  <a href={courseUrl}>{courseTitle}</a>
                  <span>{sectionTitle}</span>
                </p>
                <p className="session-seats">{seatsLeft(session)}</p>
                <p className="session-price">{formatMoney(session.price)}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {(page.earlier !== null || page.later !== null) && (
        <nav aria-label="Calendar pages" className="pagination">
          {page.earlier !== null && <Link to={pageUrl(page.earlier)} rel="prev">Earlier dates</Link>}
          {page.later !== null && <Link to={pageUrl(page.later)} rel="next">{`Later dates, from ${formatMonth(page.later)}`}</Link>}
        </nav>
      )}
      {count === 0 && (
        <p>
          {'No dates match these filters. '}
          <Link to={PATH}>Show every date</Link>
        </p>
      )}
    </div>
  );
}

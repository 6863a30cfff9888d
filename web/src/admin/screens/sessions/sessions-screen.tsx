import { useMemo } from 'react';
import { Link } from 'react-router';
import { PageHeading } from '../../components/page-heading';
import { RequestView, ResultCount } from '../../components/request-view';
import { PlacePager } from '../../components/place-pager';
import type { AdminSessions } from '../../lib/api-types';
import { can } from '../../lib/permissions';
import { useCourseChoices } from '../../lib/reference-data';
import { useStaff } from '../../lib/staff-session';
import { withQuery } from '../../lib/admin-api';
import { londonToday } from '../../lib/labels';
import { monthOf } from '../../../lib/dates';
import { useAdminData } from '../../lib/use-admin-data';
import { useQueryFilters } from '../../lib/use-query-filters';
import { paths } from '../../paths';
import { SESSION_FILTERS, SessionFilters } from './session-filters';
import { SessionsCalendar } from './sessions-calendar';
import { SessionsTable } from './sessions-table';

// Sessions (decision 017): filtered by course and dates, as a table or as a
// month calendar, 100 to a page: "Later sessions" follows the answer's
// `next`, and the calendar steps a month at a time. Staff create and edit
// them; a tutor sees only their own, as the server answers, and opens
// their rosters.

export function SessionsScreen() {
  const staff = useStaff();
  const manages = can(staff, 'sessions');
  const links = useMemo(() => ({ edit: manages, roster: can(staff, 'rosters') }), [manages, staff]);
  const filters = useQueryFilters(SESSION_FILTERS, '/api/admin/sessions');
  const courses = useCourseChoices({ inPerson: true });
  const after = filters.params.get('after') ?? '';
  const sessions = useAdminData<AdminSessions>(withQuery(filters.path, { after }));
  const calendar = filters.params.get('view') === 'calendar';
  const shown = filters.values.from || londonToday();

  return (
    <>
      <PageHeading>Sessions</PageHeading>
      {manages && (
        <p>
          <Link className="button" to={paths.newSession}>
            New session
          </Link>
        </p>
      )}
      <SessionFilters filters={filters} courses={courses} />
      <nav aria-label="Show sessions as" className="view-switch">
        <Link to={{ search: filters.searchWith({ view: null }) }} aria-current={calendar ? undefined : 'page'}>
          List
        </Link>
        <Link to={{ search: filters.searchWith({ view: 'calendar' }) }} aria-current={calendar ? 'page' : undefined}>
          Calendar
        </Link>
      </nav>
      {calendar && (
        <nav aria-label="Months" className="pager">
          <Link to={{ search: filters.searchWith({ ...monthOf(shown, -1), after: null }) }}>Previous month</Link>
          <Link to={{ search: filters.searchWith({ ...monthOf(shown, 1), after: null }) }}>Next month</Link>
        </nav>
      )}
      <ResultCount count={sessions.data?.sessions.length} one="session" many="sessions" />
      <RequestView request={sessions} what="the sessions">
        {({ sessions: found, next }) => (
          <>
            {calendar ? <SessionsCalendar sessions={found} links={links} /> : <SessionsTable sessions={found} links={links} />}
            <PlacePager label="Pages of sessions" filters={filters} param="after" next={next} first="First sessions" later="Later sessions" />
          </>
        )}
      </RequestView>
    </>
  );
}


import { useMemo } from 'react';
import { Link } from 'react-router';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { sessionTypeLabel } from '../../../lib/sessions';
import { columnsOf, DataTable } from '../../components/data-table';
import { SeatsMeter } from '../../components/seats-meter';
import type { Session } from '../../lib/api-types';
import { paths } from '../../paths';
import { sessionStatusLabel } from './session-status';

const column = columnsOf<Session>();

/** What the signed-in role may open from a session: its edit page, its roster. */
export interface SessionLinks {
  edit: boolean;
  roster: boolean;
}

export function SessionActions({ session, links }: { session: Session; links: SessionLinks }) {
  return (
    <span className="row-actions">
      {links.edit && (
        <Link to={paths.session(session.id)}>
          Edit{' '}<span className="visually-hidden">{`${session.courseTitle}, ${formatShortDate(session.date)}`}</span>
        </Link>
      )}
      {links.roster && (
        <Link to={paths.roster(session.id)}>
          Roster{' '}<span className="visually-hidden">{`for ${session.courseTitle}, ${formatShortDate(session.date)}`}</span>
        </Link>
      )}
    </span>
  );
}

export function SessionsTable({ sessions, links }: { sessions: Session[]; links: SessionLinks }) {
  const columns = useMemo(
    () =>
      column.columns([
        column.accessor('courseTitle', { header: 'Course' }),
        column.accessor('date', { header: 'Date', cell: (info) => formatShortDate(info.getValue()) }),
        column.accessor((session) => `${session.startTime}–${session.endTime}`, { id: 'time', header: 'Time', enableSorting: false }),
        column.accessor('type', { header: 'Type', cell: (info) => sessionTypeLabel(info.getValue()) }),
        column.accessor('booked', { header: 'Seats', cell: (info) => <SeatsMeter session={info.row.original} /> }),
        column.accessor('price', { header: 'Price', cell: (info) => formatMoney(info.getValue()) }),
        column.accessor('status', { header: 'Status', cell: (info) => sessionStatusLabel(info.getValue()) }),
        column.display({ id: 'actions', header: 'Actions', cell: (info) => <SessionActions session={info.row.original} links={links} /> }),
      ]),
    [links],
  );
  return (
    <DataTable
      caption="Sessions"
      columns={columns}
      rows={sessions}
      rowId={(session) => session.id}
      empty="No sessions match these filters."
      initialSort={[{ id: 'date', desc: false }]}
    />
  );
}

import { Link } from 'react-router';
import { formatShortDate } from '../../../lib/dates';
import { columnsOf, DataTable } from '../../components/data-table';
import type { Learner } from '../../lib/api-types';
import { accessLabel, formatInstant } from '../../lib/labels';
import { paths } from '../../paths';

// Registrations for online courses as staff read them (decision 027): the
// student, where the access came from, where it stands, how far they have
// got and what completing it issued. The order page lists its own, the
// learners page a course's.

const column = columnsOf<Learner>();

/** The student, by name and email; the address alone before the purchase joined an account. */
function Student({ learner }: { learner: Learner }) {
  return learner.name ? (
    <>
      {learner.name}
      <br />
      <span className="form-note">{learner.email}</span>
    </>
  ) : (
    learner.email
  );
}

function Source({ learner }: { learner: Learner }) {
  if (learner.orderId && learner.orderReference) return <Link to={paths.onlineOrder(learner.orderId)}>{learner.orderReference}</Link>;
  return `Granted by ${learner.grantedBy ?? 'staff'}`;
}

const studentColumn = column.accessor((learner) => `${learner.name} ${learner.email}`, {
  id: 'student',
  header: 'Student',
  cell: (info) => <Student learner={info.row.original} />,
});
const courseColumn = column.accessor('courseTitle', { header: 'Course' });
const restColumns = column.columns([
  column.accessor((learner) => learner.orderReference ?? '', { id: 'source', header: 'From', cell: (info) => <Source learner={info.row.original} /> }),
  column.accessor('startsAt', { header: 'Started', cell: (info) => formatInstant(info.getValue()) }),
  column.accessor('lastDay', { header: 'Last day', cell: (info) => formatShortDate(info.getValue()) }),
  column.accessor((learner) => learner.access.state, {
    id: 'access',
    header: 'Access',
    cell: (info) => [accessLabel(info.row.original.access), info.row.original.revokeReason].filter(Boolean).join(': '),
  }),
  column.accessor('percent', { header: 'Progress', cell: (info) => `${info.getValue()}%` }),
  column.accessor((learner) => learner.lastVisited ?? '', { id: 'lastVisited', header: 'Last visited', cell: (info) => (info.getValue() ? formatInstant(info.getValue()) : 'Not yet') }),
  column.accessor('complete', { header: 'Completed', cell: (info) => (info.getValue() ? 'Yes' : 'No') }),
  column.accessor((learner) => learner.certificate ?? '', { id: 'certificate', header: 'Certificate', cell: (info) => info.getValue() || '—' }),
]);

const withCourse = column.columns([studentColumn, courseColumn, ...restColumns]);
const withoutCourse = column.columns([studentColumn, ...restColumns]);

export function RegistrationsTable({ caption, registrations, empty, showCourse }: { caption: string; registrations: Learner[]; empty: string; showCourse: boolean }) {
  return <DataTable caption={caption} columns={showCourse ? withCourse : withoutCourse} rows={registrations} rowId={(learner) => learner.id} empty={empty} />;
}

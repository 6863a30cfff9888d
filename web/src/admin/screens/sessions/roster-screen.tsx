import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { columnsOf, DataTable } from '../../components/data-table';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { apiPath } from '../../lib/admin-api';
import type { Roster, RosterStudent } from '../../lib/api-types';
import { sessionWhen } from '../../lib/labels';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';
import { AttendanceBox } from './attendance-box';
import { CertificateCell } from './certificate-cell';

// A session's roster (decision 017): who is coming, whether their forms and
// balance are done, where they stand before training (decision 033), their kit, attendance, ticked on the day, and the
// certificate staff issue to those who came and have paid. Tutors
// open the rosters of the sessions they teach. It prints without the
// back office's header and nav, and downloads as CSV.

const column = columnsOf<RosterStudent>();

/** A student's online theory: 'Complete', '40% done', or 'Not given' for a booking made before the course had it. */
export function theoryWords(percent: number | null): string {
  if (percent === null) return 'Not given';
  return percent >= 100 ? 'Complete' : `${percent}% done`;
}

/** A student's entry requirements when an online course meets them: met, with its certificate, or still to check. */
export function entryWords(certificate: string | null): string {
  return certificate === null ? 'To check' : `Met online (${certificate})`;
}

/** Where a student stands before training (decision 033), in a few words for the roster. */
export function readinessWords(student: RosterStudent): string {
  if (student.ready) return 'Ready';
  const words: string[] = [];
  if (!student.formsComplete) words.push('forms to do');
  if (student.documentsAsked > 0) {
    words.push(`${student.documentsAccepted} of ${student.documentsAsked} documents accepted`);
    if (student.documentsWaiting > 0) words.push(`${student.documentsWaiting} to review`);
  }
  if (student.entry === 'to_check') words.push('entry requirement not met');
  if (!student.balancePaid) words.push('balance due');
  const said = words.join(', ');
  return said.charAt(0).toUpperCase() + said.slice(1);
}

function ReadinessCell({ sessionId, student, canOpen }: { sessionId: string; student: RosterStudent; canOpen: boolean }) {
  return (
    <span>
      {readinessWords(student)}
      {student.flagged && (
        <>
          {'. '}
          <strong>Call first</strong>
        </>
      )}
      {canOpen && (
        <>
          {' '}
          <Link to={paths.readiness(sessionId, student.enrollmentId)}>
            Open <span className="visually-hidden">{`${student.name}’s forms and documents`}</span>
          </Link>
        </>
      )}
    </span>
  );
}

function RosterTable({ roster, canIssue, canOpen }: { roster: Roster; canIssue: boolean; canOpen: boolean }) {
  const sessionId = roster.session.id;
  const entryCourse = roster.entryOnlineCourse;
  // The course's pre-course online theory, when its bookings give one.
  const hasTheory = roster.students.some((student) => student.theoryPercent !== null);
  const columns = useMemo(
    () =>
      column.columns([
        column.accessor('name', { header: 'Name' }),
        column.accessor('phone', { header: 'Phone', enableSorting: false }),
        column.accessor('formsComplete', { header: 'Forms', cell: (info) => (info.getValue() ? 'Complete' : 'Not complete') }),
        ...(hasTheory ? [column.accessor('theoryPercent', { header: 'Online theory', cell: (info) => theoryWords(info.getValue()) })] : []),
        ...(entryCourse
          ? [column.accessor('entryMetOnline', { header: `Entry requirements (${entryCourse})`, cell: (info) => entryWords(info.getValue()) })]
          : []),
        column.accessor('balancePaid', {
          header: 'Balance',
          cell: (info) => (info.getValue() ? 'Paid' : `${formatMoney(info.row.original.balanceDue)} due`),
        }),
        column.accessor('kit', { header: 'Kit', cell: (info) => info.getValue() ?? 'None' }),
        column.accessor('ready', {
          header: 'Before training',
          cell: (info) => <ReadinessCell sessionId={sessionId} student={info.row.original} canOpen={canOpen} />,
        }),
        column.display({ id: 'attended', header: 'Attended', cell: (info) => <AttendanceBox sessionId={sessionId} student={info.row.original} /> }),
        column.display({
          id: 'certificate',
          header: 'Certificate',
          cell: (info) => <CertificateCell sessionId={sessionId} student={info.row.original} canIssue={canIssue} />,
        }),
      ]),
    [sessionId, canIssue, canOpen, hasTheory, entryCourse],
  );
  return (
    <DataTable
      caption={`Students on ${roster.session.courseTitle}, ${sessionWhen(roster.session)}`}
      columns={columns}
      rows={roster.students}
      rowId={(student) => student.enrollmentId}
      empty="Nobody is booked on this session yet."
      initialSort={[{ id: 'name', desc: false }]}
    />
  );
}

export function RosterScreen() {
  const staff = useStaff();
  const { id = '' } = useParams();
  const roster = useAdminData<Roster>(apiPath('sessions', id, 'roster'));
  const session = roster.data?.session;
  return (
    <>
      <PageHeading>{session ? `Roster: ${session.courseTitle}, ${formatShortDate(session.date)}` : 'Roster'}</PageHeading>
      <div className="button-row no-print">
        <button type="button" className="button" onClick={() => window.print()}>
          Print
        </button>
        <a className="button button-secondary" href={apiPath('sessions', id, 'roster.csv')} download>
          Download as CSV
        </a>
        {can(staff, 'sessions') && <Link to={paths.session(id)}>Edit the session</Link>}
      </div>
      <RequestView request={roster} what="the roster">
        {(found) => (
          <>
            <p>{found.session.venue || found.session.joiningLink}</p>
            <RosterTable roster={found} canIssue={can(staff, 'sessions')} canOpen={can(staff, 'readiness')} />
            {found.session.takenElsewhere > 0 && (
              <p>{`${found.session.takenElsewhere} more ${found.session.takenElsewhere === 1 ? 'seat is' : 'seats are'} counted as taken without a booking on this site (booked before it), so nobody is listed for ${found.session.takenElsewhere === 1 ? 'it' : 'them'}.`}</p>
            )}
          </>
        )}
      </RequestView>
    </>
  );
}

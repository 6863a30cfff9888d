import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { formatShortDate } from '../../../lib/dates';
import { CommandStatus } from '../../components/command-status';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useCommand } from '../../components/use-command';
import { adminPut, apiPath } from '../../lib/admin-api';
import type { Roster, Session } from '../../lib/api-types';
import { seatsFilled } from '../../lib/labels';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';
import { CancelSession } from './cancel-session';
import { SessionForm } from './session-form';
import { isCancelled, sessionStatusLabel } from './session-status';

// One session: change its details, or cancel it. Decision 017 has no
// `GET /sessions/{id}`; the roster's answer carries the session.

function SessionPage({ loaded, reload }: { loaded: Session; reload: () => void }) {
  const staff = useStaff();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  // The answer of the last save, until the page is read again.
  const [saved, setSaved] = useState<Session | null>(null);
  const cancelling = useCommand();
  const session = saved ?? loaded;
  const cancelled = isCancelled(session.status);
  return (
    <>
      {notice && <p className="form-done">{notice}</p>}
      <p>{`${sessionStatusLabel(session.status)} · ${seatsFilled(session)}, ${session.waiting} waiting, ${session.offered} offered a seat`}</p>
      {can(staff, 'rosters') && <Link to={paths.roster(session.id)}>Open the roster</Link>}
      {can(staff, 'content') && <p><Link to={paths.courseMaterials(session.courseId)}>{`Course materials for ${session.courseTitle}`}</Link></p>}
      {cancelled ? (
        <p>This session was cancelled, so its details no longer change.</p>
      ) : (
        <>
          <h2>Details</h2>
          <SessionForm
            session={session}
            submit="Save the session"
            send={async ({ courseId: _course, ...details }) => {
              setSaved(await adminPut<Session>(apiPath('sessions', session.id), details));
              return 'Session saved.';
            }}
          />
          <CancelSession
            session={session}
            cancelling={cancelling}
            onCancelled={() => {
              setSaved(null);
              reload();
            }}
          />
        </>
      )}
      <CommandStatus command={cancelling} />
    </>
  );
}

export function SessionScreen() {
  const { id = '' } = useParams();
  const roster = useAdminData<Roster>(apiPath('sessions', id, 'roster'));
  const session = roster.data?.session;
  return (
    <>
      <PageHeading>{session ? `${session.courseTitle}, ${formatShortDate(session.date)}` : 'Session'}</PageHeading>
      <RequestView request={roster} what="this session">
        {(found) => <SessionPage loaded={found.session} reload={roster.retry} />}
      </RequestView>
    </>
  );
}

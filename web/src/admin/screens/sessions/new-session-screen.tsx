import { useNavigate } from 'react-router';
import { PageHeading } from '../../components/page-heading';
import { adminPost } from '../../lib/admin-api';
import type { Session } from '../../lib/api-types';
import { paths } from '../../paths';
import { SessionForm } from './session-form';

/** A new session; once created, its own page says so. */
export function NewSessionScreen() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeading>New session</PageHeading>
      <SessionForm
        submit="Create the session"
        send={async (details) => {
          const created = await adminPost<Session>('/api/admin/sessions', details);
          void navigate(paths.session(created.id), { state: { notice: 'Session created.' } });
          // The session's own page says so.
          return '';
        }}
      />
    </>
  );
}

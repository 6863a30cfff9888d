import { useState } from 'react';
import { useCommand } from '../../components/use-command';
import { adminPost, apiPath } from '../../lib/admin-api';
import type { RosterStudent } from '../../lib/api-types';

/**
 * A student's certificate on the roster: its number, linked to the public
 * check page, once issued; before that, for staff who run sessions, a
 * button that issues it. The server issues it only to a student marked as
 * attended who owes nothing, and says so otherwise.
 */
export function CertificateCell({ sessionId, student, canIssue }: { sessionId: string; student: RosterStudent; canIssue: boolean }) {
  const [number, setNumber] = useState(student.certificate);
  const issuing = useCommand();
  const id = `certificate-${student.enrollmentId}`;
  if (number) return <a href={`/certificates/${encodeURIComponent(number)}`}>{number}</a>;
  if (!canIssue) return <span className="muted">Not issued</span>;
  function issue() {
    void issuing.run(async () => {
      const issued = await adminPost<{ number: string }>(apiPath('sessions', sessionId, 'certificates', student.enrollmentId), {});
      setNumber(issued.number);
      return '';
    });
  }
  return (
    <span>
      <button type="button" className="button button-small" disabled={issuing.busy} aria-describedby={issuing.error ? `${id}-error` : undefined} onClick={issue}>
        Issue{' '}
        <span className="visually-hidden">{`${student.name}’s certificate`}</span>
      </button>
      {issuing.error && (
        <span id={`${id}-error`} role="alert" className="field-error">
          {issuing.error}
        </span>
      )}
    </span>
  );
}

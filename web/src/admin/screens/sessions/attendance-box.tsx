import { useState } from 'react';
import { useCommand } from '../../components/use-command';
import { adminPut, apiPath } from '../../lib/admin-api';
import type { RosterStudent } from '../../lib/api-types';

/** A student's attendance, marked as it is ticked; a refused change goes back, and says why. */
export function AttendanceBox({ sessionId, student }: { sessionId: string; student: RosterStudent }) {
  const [attended, setAttended] = useState(student.attended === true);
  const saving = useCommand();
  const id = `attended-${student.enrollmentId}`;
  function mark(next: boolean) {
    setAttended(next);
    void saving.run(async () => {
      try {
        await adminPut<null>(apiPath('sessions', sessionId, 'attendance', student.enrollmentId), { attended: next });
      } catch (error) {
        setAttended(!next);
        throw error;
      }
      return '';
    });
  }
  return (
    <span className="attendance">
      <input type="checkbox" id={id} checked={attended} disabled={saving.busy} aria-describedby={saving.error ? `${id}-error` : undefined} onChange={(event) => mark(event.target.checked)} />
      <label htmlFor={id} className="visually-hidden">{`${student.name} attended`}</label>
      {saving.error && (
        <span id={`${id}-error`} role="alert" className="field-error">
          {saving.error}
        </span>
      )}
    </span>
  );
}

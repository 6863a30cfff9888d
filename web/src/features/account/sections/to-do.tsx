import { Link } from '../../../lib/router';
import type { UploadRequest } from '../../../generated/UploadRequest';
import type { UserForm } from '../../../generated/UserForm';
import { formatSessionDate } from '../../../lib/dates';
import { FORM_TITLES } from './forms';

// What a student still has to do before training (decisions 032 and 033):
// the forms not complete and the documents not sent or turned down, each
// with the day it is due, listed on the overview and under each booking.

/** The fields of the account data the list reads. */
export const TO_DO_FIELDS = `forms { id kind enrollment_id course_title client_complete due_on }
  uploads { id enrollment_id title status due_on }`;

export interface ToDo {
  forms: UserForm[];
  uploads: UploadRequest[];
}

/** The forms and documents still the student's to do. */
export function stillToDo({ forms, uploads }: ToDo): ToDo {
  return {
    forms: forms.filter((form) => !form.client_complete),
    uploads: uploads.filter((wanted) => wanted.status === 'requested' || wanted.status === 'rejected'),
  };
}

const dueBy = (dueOn: string | null) => (dueOn ? <span>{`Due by ${formatSessionDate(dueOn)}`}</span> : null);

/** The list of what is left, named `label` (under `heading`, when given); nothing when nothing is left. */
export function ToDoList({ toDo, label, heading }: { toDo: ToDo; label: string; heading?: string }) {
  const { forms, uploads } = stillToDo(toDo);
  if (forms.length === 0 && uploads.length === 0) return null;
  return (
    <>
      {heading && <h3>{heading}</h3>}
      <ul className="account-list" aria-label={label}>
      {forms.map((form) => (
        <li key={form.id}>
          <Link to={`/account/forms/${form.id}/`}>{`${FORM_TITLES[form.kind] ?? 'Form'}: ${form.course_title}`}</Link>
          {dueBy(form.due_on)}
        </li>
      ))}
      {uploads.map((wanted) => (
        <li key={wanted.id}>
          <Link to="/account/documents/">{wanted.status === 'rejected' ? `Send another file: ${wanted.title}` : `Send your ${wanted.title}`}</Link>
          {dueBy(wanted.due_on)}
        </li>
      ))}
      </ul>
    </>
  );
}

import { useState } from 'react';
import { Link } from '../../../lib/router';
import type { FormQuestion } from '../../../generated/FormQuestion';
import type { UserForm } from '../../../generated/UserForm';
import { Field } from '../../../components/ui/field';
import { useForm } from '../../../components/ui/use-form';
import { putJson } from '../../../lib/api';
import { formatSessionDate } from '../../../lib/dates';
import { reportError } from '../../../lib/report-error';
import { Loaded } from '../loaded';
import { useAccountQuery } from '../use-account-query';

// The consultation and medical forms (`user_form`) a course needs before
// training, answered here, saved as a draft or sent complete. The
// questions come from the server with the form, so page and server ask
// the same ones.

export const FORM_TITLES: Record<string, string> = { consultation: 'Consultation form', medical: 'Medical form' };

const FORMS_QUERY = `{
  forms { id kind course_title client_complete completed_at due_on responses { question answer } questions { key label kind required hint } }
}`;

const YES_NO = ['Yes', 'No'] as const;
const REQUIRED = 'Please answer this question';

/** An answer as the page shows it: yes/no answers capitalised. */
const shown = (question: FormQuestion, answer: string) => (question.kind === 'yes_no' ? answer.charAt(0).toUpperCase() + answer.slice(1) : answer);

function FormEditor({ form, onSaved }: { form: UserForm; onSaved: () => void }) {
  const keys = form.questions.map((q) => q.key);
  const initial = Object.fromEntries(
    form.questions.map((q) => [q.key, shown(q, form.responses.find((r) => r.question === q.key)?.answer ?? '')]),
  );
  const [draft, setDraft] = useState<'saving' | 'saved' | 'failed' | null>(null);
  const save = (values: Record<string, string>, complete: boolean) => {
    const answers = Object.fromEntries(form.questions.map((q) => [q.key, q.kind === 'yes_no' ? (values[q.key] ?? '').toLowerCase() : values[q.key]]));
    return putJson(`/api/account/forms/${encodeURIComponent(form.id)}`, { answers, complete });
  };
  // Submitting completes the form: every required question needs an answer.
  const editor = useForm<string>({
    fields: keys,
    initial,
    validate: (values) => Object.fromEntries(form.questions.filter((q) => q.required && !values[q.key]?.trim()).map((q) => [q.key, REQUIRED])),
    send: async (values) => {
      await save(values, true);
      onSaved();
    },
  });
  const title = `${FORM_TITLES[form.kind] ?? 'Form'}: ${form.course_title}`;

  // Saving for later keeps what is answered so far, without the checks.
  async function saveDraft() {
    if (draft === 'saving' || editor.status !== 'editing') return;
    setDraft('saving');
    try {
      await save(editor.values, false);
      setDraft('saved');
      onSaved();
    } catch (error) {
      reportError(error, { action: 'save a form' });
      setDraft('failed');
    }
  }

  if (editor.status === 'sent') {
    return (
      <div role="status">
        <p>{`Thank you: your ${title.toLowerCase()} is complete.`}</p>
        <p><Link to="/account/forms/">Back to your forms</Link></p>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={editor.submit} aria-labelledby={`${editor.id}-title`}>
      <h3 id={`${editor.id}-title`}>{title}</h3>
      {form.client_complete && <p>You completed this form. You can change your answers until your training.</p>}
      {form.questions.map((q) => (
        <Field
          key={q.key}
          {...editor.field(q.key)}
          label={q.label}
          required={q.required}
          hint={q.hint ?? undefined}
          options={q.kind === 'yes_no' ? YES_NO : undefined}
          multiline={q.kind === 'long_text'}
        />
      ))}
      <p role="alert" className="form-error">{draft === 'failed' ? 'We could not save your answers. Please check your connection and try again.' : editor.message}</p>
      <p role="status">{draft === 'saved' ? 'Your answers are saved. You can finish the form later.' : ''}</p>
      <div className="account-actions">
        <button type="submit" className="button" aria-disabled={editor.status !== 'editing'}>
          {editor.status === 'sending' ? 'Sending...' : 'Submit form'}
        </button>
        <button type="button" className="button button-secondary" aria-disabled={draft === 'saving'} onClick={() => void saveDraft()}>
          {draft === 'saving' ? 'Saving...' : 'Save for later'}
        </button>
      </div>
    </form>
  );
}

/** The forms list, or one form (`formId`) to answer. */
export function Forms({ formId }: { formId: string }) {
  const request = useAccountQuery<{ forms: UserForm[] }>('forms', FORMS_QUERY);
  return (
    <Loaded request={request} what="your forms">
      {({ forms }) => {
        const form = formId ? forms.find((f) => f.id === formId) : undefined;
        if (formId && !form) return <p>We could not find that form. <Link to="/account/forms/">See your forms</Link></p>;
        if (form) return <FormEditor key={form.id} form={form} onSaved={request.retry} />;
        if (forms.length === 0) return <p>None of your courses needs a form yet.</p>;
        return (
          <ul className="account-list">
            {forms.map((f) => (
              <li key={f.id}>
                <Link to={`/account/forms/${f.id}/`}>{`${FORM_TITLES[f.kind] ?? 'Form'}: ${f.course_title}`}</Link>
                <span className="tag">{f.client_complete ? 'Complete' : 'To complete'}</span>
                {f.due_on && !f.client_complete && <span>{`Due by ${formatSessionDate(f.due_on)}`}</span>}
              </li>
            ))}
          </ul>
        );
      }}
    </Loaded>
  );
}

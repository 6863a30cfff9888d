import { Field } from '../../components/ui/field';
import { FormMessage } from '../../components/ui/form-message';
import { useForm } from '../../components/ui/use-form';
import type { WaitingListRequest } from '../../generated/WaitingListRequest';
import { postJson } from '../../lib/api';
import { emailProblem, phoneProblem } from '../../lib/contact-rules';
import { formatSessionDate } from '../../lib/dates';
import { sessionTypeLabel } from '../../lib/sessions';
import type { WaitingListJoinPage as WaitingListJoinData } from '../../generated/WaitingListJoinPage';

// Someone asks to wait for a full date (`/waiting-list/join/`).
// The server mails a link that confirms the place; people wait in the order
// they confirmed, and a freed seat is offered by mail, first come, first
// served.

const FIELDS = ['firstName', 'lastName', 'email', 'phone'] as const;
type WaitingField = (typeof FIELDS)[number];

export function validateWaiter(values: Record<WaitingField, string>): Partial<Record<WaitingField, string>> {
  const errors: Partial<Record<WaitingField, string>> = {};
  if (!values.firstName.trim()) errors.firstName = 'Name is required';
  if (!values.lastName.trim()) errors.lastName = 'Last name is required';
  if (!values.email.trim()) errors.email = 'Email is required';
  else if (emailProblem(values.email)) errors.email = emailProblem(values.email);
  const phone = phoneProblem(values.phone);
  if (values.phone.trim() && phone) errors.phone = phone;
  return errors;
}

export function WaitingListForm({ sessionId, dateLabel }: { sessionId: string; dateLabel: string }) {
  const form = useForm<WaitingField>({
    fields: FIELDS,
    initial: { firstName: '', lastName: '', email: '', phone: '' },
    validate: validateWaiter,
    send: async (values) => {
      const request: WaitingListRequest = { sessionId, ...values };
      await postJson('/api/waiting-list', request);
    },
  });
  if (form.status === 'sent') {
    return (
      <div role="status">
        <p>
          <strong>Check your email to confirm your place.</strong>
        </p>
        <p>{`We have emailed you a link for ${dateLabel}. Open it within 24 hours and confirm: your place in the queue counts from then, and until you confirm nobody is added.`}</p>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={form.submit} aria-label={`Waiting list for ${dateLabel}`}>
      <Field {...form.field('firstName')} label="First name" autoComplete="given-name" required />
      <Field {...form.field('lastName')} label="Last name" autoComplete="family-name" required />
      <Field {...form.field('email')} label="Email" type="email" autoComplete="email" required />
      <Field {...form.field('phone')} label="Phone number (optional)" type="tel" autoComplete="tel" required={false} />
      <FormMessage form={form} />
      <button type="submit" className="button" aria-disabled={form.status !== 'editing'}>
        Join the waiting list
      </button>
    </form>
  );
}

/** `/waiting-list/join/?session=…`: the form, or why there is none. */
export function WaitingListJoinPage({ page }: { page: WaitingListJoinData }) {
  const { session } = page;
  if (!session) {
    return (
      <div className="container order-page">
        <h1>This date is not open for waiting</h1>
        <p>
          It has passed or is no longer on offer. <a href="/training-course-calendar/">See the training course calendar</a>
        </p>
      </div>
    );
  }
  const label = `${formatSessionDate(session.date)} (${sessionTypeLabel(session.sessionType)})`;
  return (
    <div className="container order-page">
      <h1>Join the waiting list</h1>
      <p>
        <a href={session.courseUrl}>{session.courseTitle}</a>
        {`, ${label}.`}
      </p>
      {session.full ? (
        <WaitingListForm sessionId={session.sessionId} dateLabel={label} />
      ) : (
        <p>
          This date has a free seat: <a href={session.courseUrl}>book it on the course page</a>.
        </p>
      )}
    </div>
  );
}

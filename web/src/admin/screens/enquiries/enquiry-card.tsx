import { Link } from 'react-router';
import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { ChoiceField, TextField, type Choice } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPost, adminPut, apiPath } from '../../lib/admin-api';
import type { Enquiry, EnquiryStatus } from '../../lib/api-types';
import { oneOf, optionalChoice, requiredText } from '../../lib/form-rules';
import { choicesOf, ENQUIRY_KIND_LABELS, ENQUIRY_STATUS_LABELS, formatInstant, formatInstantDay, labelOf } from '../../lib/labels';
import { paths } from '../../paths';

// One enquiry (decision 017), in the inbox and on its own page: what the
// visitor sent, who owns it and how far it got, the replies staff mailed
// (who, when, what) with the form to send another, and the notes staff
// keep on it. What is saved is read again.

const STATUSES: readonly [EnquiryStatus, ...EnquiryStatus[]] = ['new', 'in_progress', 'done'];
const STATUS_CHOICES = choicesOf(ENQUIRY_STATUS_LABELS);

const handlingSchema = z.object({ status: oneOf(STATUSES, 'Choose the status'), ownerId: optionalChoice() });
const noteSchema = z.object({ text: requiredText('Write the note') });
const replySchema = z.object({ text: requiredText('Write the reply').max(5000, 'Keep the reply to 5,000 characters or fewer') });

interface EnquiryProps {
  enquiry: Enquiry;
  owners: Choice[] | undefined;
  /** Reads the enquiry again after a change. */
  reload: () => void;
}

function HandlingForm({ enquiry, owners, reload }: EnquiryProps) {
  const form = useAdminForm({
    schema: handlingSchema,
    defaultValues: { status: enquiry.status, ownerId: enquiry.ownerId ?? '' },
    // A reply takes a new enquiry on: the form follows what is saved.
    values: { status: enquiry.status, ownerId: enquiry.ownerId ?? '' },
    labels: { status: 'Status', ownerId: 'Owner' },
    send: async (handling) => {
      await adminPut<unknown>(apiPath('enquiries', enquiry.id), handling);
      reload();
      return 'Saved.';
    },
  });
  return (
    <AdminFormView form={form} submit="Save" className="admin-form inline-form">
      <ChoiceField form={form} name="status" choices={STATUS_CHOICES} required />
      <ChoiceField form={form} name="ownerId" choices={owners ?? []} none="Nobody yet" />
    </AdminFormView>
  );
}

function NoteForm({ enquiry, reload }: Omit<EnquiryProps, 'owners'>) {
  const form = useAdminForm({
    schema: noteSchema,
    defaultValues: { text: '' },
    labels: { text: 'New note' },
    clearWhenSent: true,
    send: async (note) => {
      await adminPost<unknown>(apiPath('enquiries', enquiry.id, 'notes'), note);
      reload();
      return 'Note added.';
    },
  });
  return (
    <AdminFormView form={form} submit="Add the note">
      <TextField form={form} name="text" multiline required />
    </AdminFormView>
  );
}

function ReplyForm({ enquiry, reload }: Omit<EnquiryProps, 'owners'>) {
  const form = useAdminForm({
    schema: replySchema,
    defaultValues: { text: '' },
    labels: { text: 'Your reply' },
    clearWhenSent: true,
    send: async (reply) => {
      await adminPost<unknown>(apiPath('enquiries', enquiry.id, 'replies'), reply);
      reload();
      return `Reply sent to ${enquiry.email}.`;
    },
  });
  return (
    <AdminFormView form={form} submit="Send the reply">
      <TextField form={form} name="text" multiline hint={`Mailed to ${enquiry.email}, signed with your name; answers come to the college’s address.`} required />
    </AdminFormView>
  );
}

/** Everything about one enquiry and what staff can do with it. */
export function EnquiryView(props: EnquiryProps) {
  const { enquiry } = props;
  return (
    <>
      <dl className="details">
        <dt>Received</dt>
        <dd>{formatInstant(enquiry.createdAt)}</dd>
        <dt>Email</dt>
        <dd>{enquiry.email ? <a href={`mailto:${enquiry.email}`}>{enquiry.email}</a> : 'Not given'}</dd>
        <dt>Phone</dt>
        <dd>{enquiry.phone || 'Not given'}</dd>
        <dt>Courses</dt>
        <dd>{enquiry.courses.length > 0 ? enquiry.courses.join(', ') : 'None named'}</dd>
        <dt>Message</dt>
        <dd className="message">{enquiry.message || 'No message'}</dd>
      </dl>
      <HandlingForm {...props} />
      <h2 className="card-heading">Replies</h2>
      {enquiry.replies.length === 0 ? (
        <p className="empty">No replies yet.</p>
      ) : (
        <ul className="notes">
          {enquiry.replies.map((reply) => (
            <li key={`${reply.at} ${reply.staffName}`}>
              <p className="muted">{`${reply.staffName} to ${reply.to}, ${formatInstant(reply.at)}`}</p>
              <p className="message">{reply.text}</p>
            </li>
          ))}
        </ul>
      )}
      {enquiry.email ? <ReplyForm enquiry={enquiry} reload={props.reload} /> : <p>No email address was given: call them to reply.</p>}
      <h2 className="card-heading">Notes</h2>
      {enquiry.notes.length === 0 ? (
        <p className="empty">No notes yet.</p>
      ) : (
        <ul className="notes">
          {enquiry.notes.map((note) => (
            <li key={`${note.at} ${note.staffName}`}>
              <p className="muted">{`${note.staffName}, ${formatInstant(note.at)}`}</p>
              <p className="message">{note.text}</p>
            </li>
          ))}
        </ul>
      )}
      <NoteForm enquiry={enquiry} reload={props.reload} />
    </>
  );
}

/** An enquiry in the inbox: a line to open, with a link to its page. */
export function EnquiryCard(props: EnquiryProps) {
  const { enquiry } = props;
  return (
    <li className="enquiry">
      <details>
        <summary>
          <strong>{enquiry.name}</strong>
          {` · ${labelOf(ENQUIRY_KIND_LABELS, enquiry.kind)} · ${formatInstantDay(enquiry.createdAt)} · ${labelOf(ENQUIRY_STATUS_LABELS, enquiry.status)} · ${enquiry.ownerName ?? 'No owner'}`}
        </summary>
        <p>
          <Link to={paths.enquiry(enquiry.id)}>{`Open the enquiry from ${enquiry.name} to reply`}</Link>
        </p>
        <EnquiryView {...props} />
      </details>
    </li>
  );
}

import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { ChoiceField, TextField, type Choice } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPost, adminPut, apiPath } from '../../lib/admin-api';
import type { Enquiry, EnquiryStatus } from '../../lib/api-types';
import { oneOf, optionalChoice, requiredText } from '../../lib/form-rules';
import { choicesOf, ENQUIRY_KIND_LABELS, ENQUIRY_STATUS_LABELS, formatInstant, formatInstantDay, labelOf } from '../../lib/labels';

// One enquiry in the inbox (decision 017): what the visitor sent, who owns
// it and how far it got, and the notes staff keep on it. What is saved is
// read again with the list.

const STATUSES: readonly [EnquiryStatus, ...EnquiryStatus[]] = ['new', 'in_progress', 'done'];
const STATUS_CHOICES = choicesOf(ENQUIRY_STATUS_LABELS);

const handlingSchema = z.object({ status: oneOf(STATUSES, 'Choose the status'), ownerId: optionalChoice() });
const noteSchema = z.object({ text: requiredText('Write the note') });

interface EnquiryCardProps {
  enquiry: Enquiry;
  owners: Choice[] | undefined;
  /** Reads the list again after a change. */
  reload: () => void;
}

function HandlingForm({ enquiry, owners, reload }: EnquiryCardProps) {
  const form = useAdminForm({
    schema: handlingSchema,
    defaultValues: { status: enquiry.status, ownerId: enquiry.ownerId ?? '' },
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

function NoteForm({ enquiry, reload }: Omit<EnquiryCardProps, 'owners'>) {
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

export function EnquiryCard(props: EnquiryCardProps) {
  const { enquiry } = props;
  return (
    <li className="enquiry">
      <details>
        <summary>
          <strong>{enquiry.name}</strong>
          {` · ${labelOf(ENQUIRY_KIND_LABELS, enquiry.kind)} · ${formatInstantDay(enquiry.createdAt)} · ${labelOf(ENQUIRY_STATUS_LABELS, enquiry.status)} · ${enquiry.ownerName ?? 'No owner'}`}
        </summary>
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
      </details>
    </li>
  );
}

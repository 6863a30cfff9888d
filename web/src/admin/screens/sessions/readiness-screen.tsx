import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api';
import { fileSize } from '../../../lib/file-size';
import { CommandStatus } from '../../components/command-status';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useCommand } from '../../components/use-command';
import { adminPut, apiPath } from '../../lib/admin-api';
import type { BookingReadiness, ReviewDocument, ReviewForm } from '../../lib/api-types';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';

// A booked student's readiness for training (decision 033), opened from a
// roster: their forms (medical answers only for the roles that may read
// them), whether an answer asks for a call, the documents they sent, each
// accepted or turned down with a reason the student is mailed. The server
// records each opening of this screen and of each file.

const FORM_NAMES: Record<ReviewForm['kind'], string> = { consultation: 'Consultation form', medical: 'Medical questionnaire' };

const DOCUMENT_STATES: Record<ReviewDocument['state'], string> = {
  requested: 'Not sent yet',
  received: 'Sent: waiting for review',
  accepted: 'Accepted',
  rejected: 'Turned down: waiting for another file',
};

const ENTRY_WORDS: Record<BookingReadiness['entry'], string> = {
  none: 'The course has no entry requirement to check.',
  met: 'Entry requirement met.',
  to_check: 'Entry requirement not met yet.',
};

function FormCard({ form }: { form: ReviewForm }) {
  return (
    <section className="action-card" aria-labelledby={`form-${form.kind}`}>
      <h2 id={`form-${form.kind}`} className="card-heading">
        {FORM_NAMES[form.kind]}
      </h2>
      <p>{form.complete ? 'Complete.' : 'Not complete yet.'}</p>
      {form.flagged && (
        <p className="form-error">
          <strong>Call before training:</strong> an answer asks the college to talk to the student first.
        </p>
      )}
      {form.answers === null ? (
        <p className="muted">Medical answers are read only by the student’s tutor and the owner.</p>
      ) : form.answers.length === 0 ? (
        <p className="muted">No answers yet.</p>
      ) : (
        <dl className="answer-list">
          {form.answers.map((answer) => (
            <div key={answer.question}>
              <dt>{answer.question}</dt>
              <dd>{answer.answer}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function DocumentCard({ booking, document, onJudged }: { booking: readonly string[]; document: ReviewDocument; onJudged: () => void }) {
  const judging = useCommand();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const canJudge = document.state === 'received';
  function judge(accepted: boolean) {
    void judging.run(async () => {
      try {
        await adminPut(apiPath(...booking, 'documents', document.id), { accepted, reason });
      } catch (failure) {
        // A turn-down without a reason: the server's words for the field, said here.
        if (failure instanceof ApiError && failure.fields.reason) throw new ApiError(failure.fields.reason, failure.status);
        throw failure;
      }
      onJudged();
      return accepted ? `“${document.title}” accepted.` : `“${document.title}” turned down: the student has been mailed the reason.`;
    });
  }
  return (
    <section className="action-card" aria-labelledby={`document-${document.id}`}>
      <h2 id={`document-${document.id}`} className="card-heading">
        {document.title}
      </h2>
      {document.description && <p className="muted">{document.description}</p>}
      <p>
        <strong>{DOCUMENT_STATES[document.state]}</strong>
        {document.state === 'rejected' && document.reason && ` (our reason: ${document.reason})`}
      </p>
      {document.uploads.length > 0 && (
        <ul>
          {document.uploads.map((upload) => (
            <li key={upload.id}>
              <a href={apiPath(...booking, 'uploads', upload.id)} download>
                {upload.file_name}
              </a>{' '}
              <span className="muted">{`${fileSize(upload.size_bytes)}, sent ${upload.uploaded_at.slice(0, 16).replace('T', ' ')}`}</span>
            </li>
          ))}
        </ul>
      )}
      {canJudge && (
        <div className="field">
          <label htmlFor={reasonId}>Reason, if you turn it down (mailed to the student)</label>
          <textarea id={reasonId} rows={2} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
          <div className="button-row">
            <button type="button" className="button" disabled={judging.busy} onClick={() => judge(true)}>
              Accept <span className="visually-hidden">{document.title}</span>
            </button>
            <button type="button" className="button button-secondary" disabled={judging.busy} onClick={() => judge(false)}>
              Turn down <span className="visually-hidden">{document.title}</span>
            </button>
          </div>
        </div>
      )}
      <CommandStatus command={judging} />
    </section>
  );
}

export function ReadinessScreen() {
  const { id = '', enrollmentId = '' } = useParams();
  // The booking's address in the API, in parts: its documents and files are below it.
  const bookingPath = ['sessions', id, 'readiness', enrollmentId];
  const readiness = useAdminData<BookingReadiness>(apiPath(...bookingPath));
  const found = readiness.data;
  return (
    <>
      <PageHeading>{found ? `Before training: ${found.name}` : 'Before training'}</PageHeading>
      <p className="no-print">
        <Link to={paths.roster(id)}>Back to the roster</Link>
      </p>
      <RequestView request={readiness} what="what the student has sent">
        {(booking) => (
          <div className="readiness-cards">
            <p>
              {`${booking.courseTitle}. `}
              <strong>{booking.ready ? 'Ready for training.' : 'Not ready yet.'}</strong> {ENTRY_WORDS[booking.entry]}
            </p>
            {booking.forms.length === 0 && booking.documents.length === 0 && <p>This course asks for no forms or documents.</p>}
            {booking.forms.map((form) => (
              <FormCard key={form.kind} form={form} />
            ))}
            {booking.documents.map((document) => (
              <DocumentCard key={document.id} booking={bookingPath} document={document} onJudged={readiness.retry} />
            ))}
          </div>
        )}
      </RequestView>
    </>
  );
}

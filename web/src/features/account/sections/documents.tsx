import { useId, useState, type FormEvent } from 'react';
import type { UploadRequest } from '../../../generated/UploadRequest';
import { ApiError, postJson } from '../../../lib/api';
import { formatSessionDate, formatShortDate } from '../../../lib/dates';
import { reportError } from '../../../lib/report-error';
import { Loaded } from '../loaded';
import { useAccountQuery } from '../use-account-query';

// Evidence a course asks for (a Level 2 certificate, say): the student
// sends a PDF or a photo, and sees and downloads what they sent. The page
// checks the type and size first; the server checks the content again.

const UPLOADS_QUERY = '{ uploads { id title description status reason due_on uploads { id file_name size_bytes uploaded_at } } }';
const MAX_BYTES = 5 * 1024 * 1024;
const ACCEPTED = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'];
const STATUS_WORDS: Record<string, string> = { requested: 'Waiting for your file', received: 'Received', accepted: 'Accepted', rejected: 'Please send another' };

/** The file's bytes as base64, for a JSON body. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/** What is wrong with `file` before it is sent, if anything. */
export function fileProblem(file: File | undefined): string | null {
  if (!file) return 'Choose a file to send.';
  if (!ACCEPTED.includes(file.type)) return 'Please send a PDF or an image (JPEG, PNG or WebP).';
  if (file.size > MAX_BYTES) return 'The file is larger than 5 MB. Please send a smaller copy.';
  return null;
}

function UploadForm({ request, onSent }: { request: UploadRequest; onSent: () => void }) {
  const id = useId();
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState('');
  const [sending, setSending] = useState(false);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const input = event.currentTarget.elements.namedItem('file') as HTMLInputElement;
    const file = input.files?.[0];
    const problem = fileProblem(file);
    setSent('');
    if (problem || !file) {
      setMessage(problem ?? '');
      input.focus();
      return;
    }
    setSending(true);
    setMessage('');
    try {
      await postJson(`/api/account/upload-requests/${encodeURIComponent(request.id)}/files`, { file_name: file.name, data: await base64Of(file) });
      input.value = '';
      setSent(`${file.name} is sent.`);
      onSent();
    } catch (error) {
      reportError(error, { action: 'send a document' });
      setMessage(error instanceof ApiError ? error.message : 'We could not send the file. Please check your connection and try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void send(event)} className="account-upload">
      <label htmlFor={`${id}-file`}>{`Choose a file for ${request.title}`}</label>
      <input id={`${id}-file`} name="file" type="file" accept={ACCEPTED.join(',')} aria-describedby={`${id}-hint ${id}-message`} />
      <p id={`${id}-hint`} className="field-hint">A PDF or an image (JPEG, PNG or WebP), up to 5 MB.</p>
      <p id={`${id}-message`} role="alert" className="form-error">{message}</p>
      <p role="status" className="form-success">{sent}</p>
      <button type="submit" className="button" aria-disabled={sending}>{sending ? 'Sending...' : 'Send file'}</button>
    </form>
  );
}

/** The evidence each course asks for, what was sent, and a form to send more. */
export function Documents() {
  const request = useAccountQuery<{ uploads: UploadRequest[] }>('documents', UPLOADS_QUERY);
  return (
    <Loaded request={request} what="your documents">
      {({ uploads }) =>
        uploads.length === 0 ? (
          <p>None of your courses asks for documents.</p>
        ) : (
          uploads.map((wanted) => (
            <section key={wanted.id} className="account-card" aria-label={wanted.title}>
              <h3>{wanted.title}</h3>
              <p>{wanted.description}</p>
              <p>
                <span className="tag">{STATUS_WORDS[wanted.status] ?? wanted.status}</span>
                {wanted.due_on && (wanted.status === 'requested' || wanted.status === 'rejected') && ` Due by ${formatSessionDate(wanted.due_on)}`}
              </p>
              {wanted.status === 'rejected' && wanted.reason && <p className="form-error">{`We could not accept your last file: ${wanted.reason}`}</p>}
              {wanted.uploads.length > 0 && (
                <ul className="account-list">
                  {wanted.uploads.map((file) => (
                    <li key={file.id}>
                      <a href={`/api/account/uploads/${encodeURIComponent(file.id)}`} download={file.file_name}>{file.file_name}</a>
                      <span>{`Sent ${formatShortDate(file.uploaded_at)}, ${Math.max(1, Math.round(file.size_bytes / 1024))} KB`}</span>
                    </li>
                  ))}
                </ul>
              )}
              {wanted.status !== 'accepted' && <UploadForm request={wanted} onSent={request.retry} />}
            </section>
          ))
        )
      }
    </Loaded>
  );
}

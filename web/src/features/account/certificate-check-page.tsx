import type { FormEvent } from 'react';
import { useNavigate } from '../../lib/router';
import type { CertificatePage } from '../../generated/CertificatePage';
import { formatLongDate } from '../../lib/dates';

const LOOKUP_PATH = '/certificates/';

/**
 * `/certificates/{number}`: anyone, an employer or an insurer, checks that
 * the college issued a certificate, to whom, for which course and when; a
 * number it never issued (answered as not found), or one withdrawn, is said
 * plainly. `/certificates/` asks for a number: a plain GET form, so it works
 * without JavaScript, which goes straight to the number's own address.
 */
export function CertificateCheckPage({ page }: { page: CertificatePage }) {
  const { number, certificate } = page;
  return (
    <div className="container account-page">
      <h1>Check a certificate</h1>
      {number === null ? (
        <p>Employers, insurers and anyone else can check here that we issued a certificate, to whom and for which course.</p>
      ) : !certificate ? (
        <p role="status">{`We have no certificate with the number ${number}. Please check the number and try again, or call us.`}</p>
      ) : certificate.revoked ? (
        <p role="status">{`Certificate ${number} was issued to ${certificate.holderName} but has been withdrawn. It is no longer valid.`}</p>
      ) : (
        <>
          <p role="status">{`Certificate ${number} is genuine.`}</p>
          <dl className="certificate-facts">
            <dt>Holder</dt>
            <dd>{certificate.holderName}</dd>
            <dt>Course</dt>
            <dd>{certificate.courseTitle}</dd>
            <dt>Issued</dt>
            <dd>{formatLongDate(certificate.issuedOn)}</dd>
          </dl>
        </>
      )}
      <CertificateLookup key={number ?? ''} again={number !== null} />
    </div>
  );
}

function CertificateLookup({ again }: { again: boolean }) {
  const navigate = useNavigate();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    const typed = new FormData(event.currentTarget).get('number');
    const number = typeof typed === 'string' ? typed.trim().toUpperCase() : '';
    if (!number) return;
    event.preventDefault();
    navigate(`${LOOKUP_PATH}${encodeURIComponent(number)}`);
  };
  return (
    <form method="get" action={LOOKUP_PATH} className="certificate-lookup" onSubmit={submit} aria-labelledby="certificate-lookup-heading">
      <h2 id="certificate-lookup-heading">{again ? 'Check another certificate' : 'Look up a certificate'}</h2>
      <div className="field">
        <label htmlFor="certificate-number">Certificate number</label>
        <p id="certificate-number-hint" className="form-note">It is printed beside the QR code at the foot of the certificate.</p>
        <input id="certificate-number" name="number" type="text" required autoComplete="off" autoCapitalize="characters" spellCheck={false} aria-describedby="certificate-number-hint" />
      </div>
      <button type="submit" className="button">Check certificate</button>
    </form>
  );
}

import type { CertificatePage } from '../../generated/CertificatePage';
import { formatSessionDate } from '../../lib/dates';

/**
 * `/certificates/{number}` (issue 12): anyone, an employer or an insurer,
 * checks that the college issued a certificate, to whom, for which course
 * and when; a number it never issued, or one withdrawn, is said plainly.
 */
export function CertificateCheckPage({ page }: { page: CertificatePage }) {
  const { number, certificate } = page;
  return (
    <div className="container account-page">
      <h1>Check a certificate</h1>
      {!certificate ? (
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
            <dd>{formatSessionDate(`${certificate.issuedOn}T00:00:00`)}</dd>
          </dl>
        </>
      )}
    </div>
  );
}

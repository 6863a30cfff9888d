import type { Certificate } from '../../../generated/Certificate';
import { formatShortDate } from '../../../lib/dates';
import { Loaded } from '../loaded';
import { useAccountQuery } from '../use-account-query';

const CERTIFICATES_QUERY = '{ certificates { id number course_title issued_on revoked } }';

/** The student's certificates: each checkable by anyone at its public page, and kept as a PDF. */
export function Certificates() {
  const request = useAccountQuery<{ certificates: Certificate[] }>('certificates', CERTIFICATES_QUERY);
  return (
    <Loaded request={request} what="your certificates">
      {({ certificates }) =>
        certificates.length === 0 ? (
          <p>Your certificates appear here once you finish a course.</p>
        ) : (
          <ul className="account-list">
            {certificates.map((c) => (
              <li key={c.id}>
                <strong>{c.course_title}</strong>
                <span>{`Issued ${formatShortDate(`${c.issued_on}T00:00:00`)}, number ${c.number}`}</span>
                {c.revoked ? (
                  <span className="form-error">This certificate was withdrawn.</span>
                ) : (
                  <span className="account-actions">
                    <a href={`/certificates/${encodeURIComponent(c.number)}`}>{`View certificate ${c.number}`}</a>
                    <a href={`/api/account/certificates/${encodeURIComponent(c.number)}`} download>{`Download certificate ${c.number} (PDF)`}</a>
                  </span>
                )}
              </li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

// What error reporting leaves out (docs/product.md#errors): the messages 'script error' and
// 'resize observer loop', health-check transactions, transactions of the
// not-found page, and errors whose message mentions prototype. The same
// rule as enrol_domain::error_reporting on the server: both are tested
// against crates/enrol-domain/src/error-report-vectors.json.

/** The name given to transactions of the not-found page. */
export const NOT_FOUND_TRANSACTION = 'not-found';

export function isIgnored(message?: string | null, transaction?: string | null): boolean {
  const text = (message ?? '').toLowerCase();
  const name = transaction ?? '';
  return (
    text.includes('script error') ||
    text.replace(/\s/g, '').includes('resizeobserverloop') ||
    text.includes('prototype') ||
    name.replace(/^GET /, '').replace(/\/$/, '') === '/healthz' ||
    name === NOT_FOUND_TRANSACTION
  );
}


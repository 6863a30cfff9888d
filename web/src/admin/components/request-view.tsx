import type { ReactNode } from 'react';
import { ApiError } from '../../lib/api';
import type { Request } from '../../lib/use-request';
import { NO_ACCESS } from '../lib/admin-api';

/** What a failed load says: the refusal of a 403, a 404's, or a way to try again. */
export function LoadFailure({ error, what, retry, missing }: { error: unknown; what: string; retry: () => void; missing?: string }) {
  const status = error instanceof ApiError ? error.status : 0;
  // A 401 has already sent the browser to the sign-in page.
  if (status === 401) return null;
  if (status === 403) return <p className="refusal">{NO_ACCESS}</p>;
  if (status === 404 || status === 410) return <p className="refusal">{missing ?? `We could not find ${what}.`}</p>;
  return (
    <div className="refusal">
      <p>{`We could not load ${what}.`}</p>
      <button type="button" className="button button-secondary" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

interface RequestViewProps<T> {
  request: Request<T>;
  /** What is loading, in a sentence: 'the orders'. */
  what: string;
  /** What a 404 says, when not 'We could not find …'. */
  missing?: string;
  children: (data: T) => ReactNode;
}

/** A loaded answer, or what is happening instead; the last answer stays while the next loads. */
export function RequestView<T>({ request, what, missing, children }: RequestViewProps<T>) {
  if (request.status === 'failed') return <LoadFailure error={request.error} what={what} retry={request.retry} missing={missing} />;
  if (request.data === undefined) return <p role="status">{`Loading ${what}…`}</p>;
  return (
    <div className="loaded" aria-busy={request.status === 'loading'}>
      {children(request.data)}
    </div>
  );
}

/** How many a list found, said in a live region there from the start: '1 order', '12 orders'. */
export function ResultCount({ count, one, many }: { count: number | undefined; one: string; many: string }) {
  return (
    <p role="status" className="result-count">
      {count === undefined ? '' : count === 1 ? `1 ${one}` : `${count} ${many}`}
    </p>
  );
}

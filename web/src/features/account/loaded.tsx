import type { ReactNode } from 'react';
import type { Request } from '../../lib/use-request';

/** A part of the account while its data loads, when it failed (with a way to try again), and once it is here. */
export function Loaded<T>({ request, what, children }: { request: Request<T>; what: string; children: (data: T) => ReactNode }) {
  if (request.status === 'failed') {
    return (
      <>
        <p role="alert" className="form-error">{`We could not load ${what}. Please check your connection and try again.`}</p>
        <button type="button" className="button" onClick={request.retry}>Try again</button>
      </>
    );
  }
  if (request.data === undefined) return <p role="status">{`Loading ${what}...`}</p>;
  return children(request.data);
}

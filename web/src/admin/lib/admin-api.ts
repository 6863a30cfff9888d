import { deleteJson, getJson, postFile, postJson, putJson, ApiError } from '../../lib/api';

// The back office's one way to call `/api/admin/…` (decision 017): the
// site's JSON helpers (same-origin credentials, `Content-Type:
// application/json` on every change, the error envelope as an `ApiError`),
// and a 401 from any call ends the session in the browser too, so every
// screen falls back to the sign-in page the same way.

type SessionEnded = () => void;
const listeners = new Set<SessionEnded>();

/** Calls `listener` whenever the server answers 401; returns the way to stop. */
export function whenSessionEnds(listener: SessionEnded): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function watched<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) for (const listener of listeners) listener();
    throw error;
  }
}

export function adminGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  return watched(getJson<T>(path, signal));
}

/** A `POST`; a command without fields (sign out, expire, resend) sends `{}`. */
export function adminPost<T>(path: string, body: unknown = {}): Promise<T> {
  return watched(postJson<T>(path, body));
}

/** A `POST` whose body is the file itself (a course file, decision 028). */
export function adminPostFile<T>(path: string, file: Blob): Promise<T> {
  return watched(postFile<T>(path, file));
}

export function adminPut<T>(path: string, body: unknown): Promise<T> {
  return watched(putJson<T>(path, body));
}

/** A `DELETE`; a 204 answers null. */
export function adminDelete<T>(path: string): Promise<T> {
  return watched(deleteJson<T>(path));
}

/** An address in the back office's API, each part encoded: `apiPath('sessions', id, 'roster')`. */
export function apiPath(...parts: string[]): string {
  return ['/api/admin', ...parts.map(encodeURIComponent)].join('/');
}

/** `path` with the query's non-empty values added, in the order given, after any it has. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const [base = '', existing] = path.split('?');
  const params = new URLSearchParams(existing);
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

/** What a screen says when the server refused the signed-in role (403). */
export const NO_ACCESS = 'You do not have access to this.';
export const UNREACHABLE = 'We could not reach the server. Please check your connection and try again.';

/**
 * What a failed change says: the server's own words (staff act on them: a
 * rule's 422, a conflict's 409, a 429's wait), the refusal of a 403, and
 * for anything that never reached the server, that it did not.
 */
export function failureOf(error: unknown): string {
  if (!(error instanceof ApiError)) return UNREACHABLE;
  return error.status === 403 ? NO_ACCESS : error.message;
}

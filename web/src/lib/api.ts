// Calls to the site's own JSON API. Errors arrive in one envelope:
// {"error": {"code", "message", "fields"?}}.

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The server's messages for the form's own `fields`, leaving out any other it named. */
export function fieldErrorsOf<F extends string>(error: ApiError, fields: readonly F[]): Partial<Record<F, string>> {
  const found: Partial<Record<F, string>> = {};
  for (const field of fields) {
    if (error.fields[field]) found[field] = error.fields[field];
  }
  return found;
}

/**
 * What a form says when its call failed: its own words, except when the
 * server asked this client to slow down (429, decision 009), whose message
 * says when to try again.
 */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status === 429 ? error.message : fallback;
}

interface ErrorEnvelope {
  error?: { message?: string; fields?: Record<string, string> };
}

/** A request's options; its headers go with the JSON ones. */
export type SendOptions = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };

// Same-origin credentials: the session and the `enrol_buyer` cookie that
// binds an order to this browser (decision 009) go with every call.
async function send<T>(method: 'POST' | 'PUT' | 'DELETE', url: string, body: BodyInit | undefined, contentType: string, { headers, ...init }: SendOptions): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': contentType, accept: 'application/json', ...headers },
    body,
    credentials: 'same-origin',
    ...init,
  });
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const envelope = (payload ?? {}) as ErrorEnvelope;
    throw new ApiError(
      envelope.error?.message ?? 'Something went wrong. Please try again.',
      response.status,
      envelope.error?.fields ?? {},
    );
  }
  return payload as T;
}

function sendJson<T>(method: 'POST' | 'PUT' | 'DELETE', url: string, body: unknown, init: SendOptions): Promise<T> {
  return send(method, url, body === undefined ? undefined : JSON.stringify(body), 'application/json', init);
}

/**
 * A file as the body of a `POST`, its bytes as they are: a course file may
 * be far too large for JSON (decision 028). The server knows it by its
 * bytes, so the type sent says only that they are bytes.
 */
export function postFile<T>(url: string, file: Blob, init: SendOptions = {}): Promise<T> {
  return send('POST', url, file, 'application/octet-stream', init);
}

export function postJson<T>(url: string, body: unknown, init: SendOptions = {}): Promise<T> {
  return sendJson('POST', url, body, init);
}

export function putJson<T>(url: string, body: unknown, init: SendOptions = {}): Promise<T> {
  return sendJson('PUT', url, body, init);
}

/** A `DELETE`, which sends no body. */
export function deleteJson<T>(url: string, init: SendOptions = {}): Promise<T> {
  return sendJson('DELETE', url, undefined, init);
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', signal });
  if (!response.ok) throw new ApiError(`Request failed with status ${response.status}`, response.status);
  return (await response.json()) as T;
}

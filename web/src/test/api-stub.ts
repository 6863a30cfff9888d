import { vi } from 'vitest';

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Answers a call from its JSON body: a response, or a thrown error for a network failure. */
export type Answer = (body: unknown) => Response | Promise<Response>;

/** One request the page sent, in full: `"METHOD path"`, the path with its query, the parsed body and the request's options (headers, credentials). */
export interface StubbedRequest {
  route: string;
  url: string;
  body: unknown;
  init: RequestInit | undefined;
}

/**
 * Stubs `fetch` at the network boundary: each call goes to the answer under
 * `"METHOD path"` (the path without its query). Returns the calls made, with
 * their parsed bodies, in order, and the same `requests` in full.
 */
export function stubApi(answers: Record<string, Answer>) {
  const calls: { route: string; body: unknown }[] = [];
  const requests: StubbedRequest[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://localhost');
    const route = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ route, body });
    requests.push({ route, url: url.pathname + url.search, body, init });
    const answer = answers[route];
    if (!answer) throw new Error(`Unexpected call: ${route}`);
    return answer(body);
  });
  return { calls, requests, spy, routes: () => calls.map((call) => call.route) };
}

/** The server's words when a client sends too much (decision 009). */
export const SLOW_DOWN = 'You have sent a lot of requests in a short time. Please wait a minute and try again.';

/** The answer of a client over the server's rate limit: 429 with `SLOW_DOWN`. */
export const tooManyRequests = () => jsonResponse(429, { error: { code: 'too_many_requests', message: SLOW_DOWN } });

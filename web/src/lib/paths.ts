// Addresses of the site's own pages that more than one part of the app
// links to, and the sign-in page's way back (decision 008).

export const ACCOUNT_PATH = '/account/';

/**
 * Where to go after signing in: the `next` parameter when it is a path of
 * this site (a single leading '/', so never `//elsewhere.example`), else the
 * account. Browser only: QuickJS has no URLSearchParams.
 */
export function nextPathOf(search: string): string {
  return sameSitePath(new URLSearchParams(search).get('next'), ACCOUNT_PATH);
}

/** `path` when it is a path of this site (a single leading '/'), else `fallback`. */
export function sameSitePath(path: string | null | undefined, fallback: string): string {
  return path && /^\/(?![/\\])/.test(path) ? path : fallback;
}

/** The sign-in page, coming back to `path` afterwards. */
export function signInPathFor(path: string): string {
  return `/sign-in/?next=${encodeURIComponent(path).replace(/%2F/g, '/')}`;
}

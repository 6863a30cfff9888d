import { useEffect, useState } from 'react';
import { useLocation } from './router';

// Decisions 008, 009 and 014: the mails link to pages with a one-time
// token in `?token=`. Once read it leaves the address bar, so no script on
// the page (analytics, once accepted) and no bookmark or shared screen
// keeps it.

/**
 * The `?token=` of the mailed link this page was opened from: `undefined`
 * until read after hydration (the server's render never knows it, and
 * QuickJS has no URLSearchParams), then the token, or null without one.
 */
export function useLinkToken(): string | null | undefined {
  const { search } = useLocation();
  const [token, setToken] = useState<string | null | undefined>(undefined);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the token is read after hydration: the server's render never knows it
    setToken(new URLSearchParams(search).get('token') || null);
    const address = new URL(window.location.href);
    address.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', address.pathname + address.search + address.hash);
  }, [search]);

  return token;
}

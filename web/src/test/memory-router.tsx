import { screen } from '@testing-library/react';
import { useCallback, useState, type ReactNode } from 'react';
import { locationOf, Router, useLocation, type Location, type NavigateFunction } from '../lib/router';

const ORIGIN = 'http://localhost';

/** Where a test's router starts: a path with its query, or with the state its history entry carries too. */
export type InitialEntry = string | { pathname: string; search?: string; state?: unknown };

const startAt = (entry: InitialEntry): Location =>
  typeof entry === 'string' ? locationOf(entry, ORIGIN) : locationOf(entry.pathname + (entry.search ?? ''), ORIGIN, entry.state ?? null);

/** The site's router in memory, for tests: starts at the first of `initialEntries` (`/` if none) and goes where it is told. */
export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: InitialEntry[]; children: ReactNode }) {
  const [location, setLocation] = useState(() => startAt(initialEntries[0] ?? '/'));
  const navigate = useCallback<NavigateFunction>(
    (to, { state = null } = {}) => setLocation((here) => locationOf(to, ORIGIN + here.pathname + here.search, state)),
    [],
  );
  return (
    <Router location={location} navigate={navigate}>
      {children}
    </Router>
  );
}

/**
 * What the page at the router's path shows, of `pages` by path: a path
 * ending in `*` stands for every path that starts with the rest; nothing
 * when none matches.
 */
export function Pages({ pages }: { pages: Record<string, ReactNode> }) {
  const { pathname } = useLocation();
  const found = Object.entries(pages).find(([path]) => (path.endsWith('*') ? pathname.startsWith(path.slice(0, -1)) : pathname === path));
  return found?.[1] ?? null;
}

/** Shows the router's current path and query, for `address()` to read. */
export function CurrentAddress() {
  const { pathname, search } = useLocation();
  return <p data-testid="address">{pathname + search}</p>;
}

/** The router's current path and query, as `CurrentAddress` shows it. */
export const address = () => screen.getByTestId('address').textContent;

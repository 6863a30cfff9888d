import { createContext, useCallback, useContext, useEffect, useMemo, useState, type AnchorHTMLAttributes, type ReactNode, type Ref } from 'react';

// The public site's router (decision 041). The server decides which page an
// address is (decisions 003 and 005), so the browser needs no route table:
// only where it is, a way to go elsewhere without loading the page in full,
// and links. That is all this module is; React Router stays in the back
// office, whose routes are its own.

/** Where the site is: the address's parts, and the state its history entry carries. */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
}

export interface NavigateOptions {
  /** Replace the current history entry rather than add one (Back skips it). */
  replace?: boolean;
  /** What the entry carries beside its address (never in the address itself). */
  state?: unknown;
}

/** Goes to `to`, a path on this site (with its query and fragment, if any). */
export type NavigateFunction = (to: string, options?: NavigateOptions) => void;

interface RouterValue {
  location: Location;
  navigate: NavigateFunction;
}

const RouterContext = createContext<RouterValue | null>(null);

function useRouter(): RouterValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('A link or a page was rendered outside a router');
  return router;
}

export const useLocation = (): Location => useRouter().location;
export const useNavigate = (): NavigateFunction => useRouter().navigate;

/** `to`, read against the address `base`, as a location carrying `state`. */
export function locationOf(to: string, base: string, state: unknown = null): Location {
  const { pathname, search, hash } = new URL(to, base);
  return { pathname, search, hash, state };
}

/** A router at `location` that goes elsewhere by `navigate`: what the three routers below share. */
export function Router({ location, navigate, children }: RouterValue & { children: ReactNode }) {
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** What this router keeps in `history.state`. */
interface Entry {
  state: unknown;
}

const windowLocation = (): Location => {
  const entry = window.history.state as Partial<Entry> | null;
  return locationOf(window.location.href, window.location.href, entry?.state ?? null);
};

/** The browser's router: the window's address and history, followed through Back and Forward. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(windowLocation);
  useEffect(() => {
    const moved = () => setLocation(windowLocation());
    window.addEventListener('popstate', moved);
    return () => window.removeEventListener('popstate', moved);
  }, []);
  const navigate = useCallback<NavigateFunction>((to, { replace = false, state = null } = {}) => {
    const url = new URL(to, window.location.href);
    if (url.origin !== window.location.origin) {
      window.location.assign(url);
      return;
    }
    const entry: Entry = { state };
    if (replace) window.history.replaceState(entry, '', url);
    else window.history.pushState(entry, '', url);
    setLocation(windowLocation());
  }, []);
  return (
    <Router location={location} navigate={navigate}>
      {children}
    </Router>
  );
}

const stayPut: NavigateFunction = (to) => {
  throw new Error(`A page rendered on the server cannot go to ${to}`);
};

/** The server's router (QuickJS): one address, and nowhere to go from it. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const [here] = useState(() => locationOf(location, 'http://localhost'));
  return (
    <Router location={here} navigate={stayPut}>
      {children}
    </Router>
  );
}

/** Addresses the server answers itself: never pages of the app. */
const SERVER_PATHS = /^\/(api|assets|media|course-materials|_next|sandbox|webhooks|dev)(\/|$)|^\/(sitemap\.xml|robots\.txt)$/;

/** Whether the server answers `pathname` itself (a preview's pages, say): the browser loads it, never the router. */
export const isServerPath = (pathname: string) => SERVER_PATHS.test(pathname);

/**
 * Where the router should take a click, or `null` when the browser should
 * follow it itself: a modified or non-primary click, another window or
 * origin, a download, a jump within the page, or a server-only address.
 */
export function routedPath(event: MouseEvent, origin: string, current: string): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a') : null;
  const href = anchor?.getAttribute('href');
  if (!anchor || href === null || href === undefined || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(href, origin + current);
  if (url.origin !== origin || isServerPath(url.pathname)) return null;
  const path = url.pathname + url.search;
  if (path === current && url.hash) return null;
  return path + url.hash;
}

/** Where the router should take `event`'s click from the current address, if anywhere. */
export const clickedPath = (event: MouseEvent) => routedPath(event, window.location.origin, window.location.pathname + window.location.search);

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path on this site. */
  to: string;
  ref?: Ref<HTMLAnchorElement>;
};

/**
 * A link to a page of the site: a plain `<a href>` on the server and without
 * JavaScript, followed by the router when clicked as a plain link is
 * (`routedPath`). The static menus use plain `<a>`s, which `AnchorNavigation`
 * routes the same way (decision 007).
 */
export function Link({ to, onClick, children, ...anchor }: LinkProps) {
  const navigate = useNavigate();
  return (
    <a
      {...anchor}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        const path = clickedPath(event.nativeEvent);
        if (path === null) return;
        event.preventDefault();
        navigate(path);
      }}
    >
      {children}
    </a>
  );
}

import { createContext, createElement, useContext, useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { isServerPath, useLocation } from '../lib/router';
import type { PageEnvelope } from '../generated/PageEnvelope';
import { fetchPageData } from '../lib/page-data';
import { useRequest } from '../lib/use-request';
import { useRouteTable } from './route-table';

interface PageState {
  envelope: PageEnvelope;
  /** The next page is loading: its data and its route module. */
  loading: boolean;
}

const PageDataContext = createContext<PageState | null>(null);

export function usePageData(): PageState {
  const state = useContext(PageDataContext);
  if (!state) throw new Error('usePageData must be used inside PageDataProvider');
  return state;
}

/** After client-side navigation: the head of the new page, scroll and focus. */
function applyHead(envelope: PageEnvelope, hash: string) {
  document.title = envelope.head.title;
  // Error reporting reads it (decision 013): the not-found page's traces are left out.
  document.documentElement.dataset.status = String(envelope.status);
  document.querySelector('meta[name="description"]')?.setAttribute('content', envelope.head.description);
  const canonical = document.querySelector('link[rel="canonical"]');
  if (canonical) canonical.setAttribute('href', new URL(envelope.head.canonical, canonical.getAttribute('href') ?? location.href).href);
  const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  if (target) {
    target.scrollIntoView();
  } else {
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }
}

/**
 * Holds the page data of the current URL. The server embeds the first page's
 * data; later pages come from `/api/page-data` as the router's location
 * changes, and are shown once their route module has loaded too, so the
 * page never falls back to a spinner. If that fails the browser loads the
 * page in full.
 */
export function PageDataProvider({ initial, children }: { initial: PageEnvelope; children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const routes = useRouteTable();
  const target = pathname + search;
  const [first] = useState(target);
  // A router link to an address the server answers itself (a staff
  // preview's next lesson) is loaded in full, as a plain link is.
  const serverPage = isServerPath(pathname) && target !== first;
  const page = useRequest(
    serverPage ? null : target,
    async (signal) => {
      const envelope = await fetchPageData(target, signal);
      await routes.load(envelope.page.kind);
      return envelope;
    },
    { initial: { key: first, data: initial }, reportAs: 'load the page data' },
  );
  const envelope = page.data ?? initial;

  const shown = useRef(envelope);
  const arrived = useEffectEvent((next: PageEnvelope) => applyHead(next, hash));
  useEffect(() => {
    if (shown.current === envelope) return;
    shown.current = envelope;
    arrived(envelope);
  }, [envelope]);

  const inFull = page.status === 'failed' || serverPage;
  const loadInFull = useEffectEvent(() => window.location.assign(target + hash));
  useEffect(() => {
    if (inFull) loadInFull();
  }, [inFull]);

  return <PageDataContext.Provider value={{ envelope, loading: page.status === 'loading' }}>{children}</PageDataContext.Provider>;
}

/** The page of the current data's kind: the server decides which page a path is. */
export function CurrentPage() {
  const { envelope } = usePageData();
  return createElement(useRouteTable().component(envelope.page.kind), { page: envelope.page, path: envelope.path });
}

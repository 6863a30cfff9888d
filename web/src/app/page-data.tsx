import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { PageEnvelope } from '../generated/PageEnvelope';

interface PageState {
  envelope: PageEnvelope;
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
 * changes. If that call fails the browser loads the page in full.
 */
export function PageDataProvider({ initial, children }: { initial: PageEnvelope; children: ReactNode }) {
  const location = useLocation();
  const [state, setState] = useState<PageState>({ envelope: initial, loading: false });
  const current = useRef(location.pathname + location.search);

  useEffect(() => {
    const target = location.pathname + location.search;
    if (target === current.current) return;
    current.current = target;
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    fetch(`/api/page-data?path=${encodeURIComponent(target)}`, {
      headers: { accept: 'application/json' },
      signal: controller.signal,
    })
      .then((response) => {
        if (!response.headers.get('content-type')?.includes('application/json')) throw new Error('No page data');
        return response.json() as Promise<PageEnvelope>;
      })
      .then((envelope) => {
        setState({ envelope, loading: false });
        applyHead(envelope, location.hash);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Page data failed, loading the page in full', error);
        window.location.assign(target + location.hash);
      });
    return () => controller.abort();
  }, [location.pathname, location.search, location.hash]);

  return <PageDataContext.Provider value={state}>{children}</PageDataContext.Provider>;
}

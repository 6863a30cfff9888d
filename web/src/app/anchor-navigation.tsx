import { useEffect } from 'react';
import { useNavigate } from 'react-router';

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

/**
 * The large static menus (header, footer, course cards) use plain `<a>`s:
 * a router `Link` costs several times more to render on the server. This one
 * listener gives every same-site plain link client-side navigation
 * (decision 007). React's own handlers run first, so a menu still closes.
 */
export function AnchorNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const path = routedPath(event, window.location.origin, window.location.pathname + window.location.search);
      if (path === null) return;
      event.preventDefault();
      void navigate(path);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
  return null;
}

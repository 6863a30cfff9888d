import { useEffect } from 'react';
import { clickedPath, useNavigate } from '../lib/router';

/**
 * The large static menus (header, footer, course cards) use plain `<a>`s:
 * a `Link` costs more to render on the server. This one listener gives every
 * same-site plain link client-side navigation (decision 007), by the rule a
 * `Link` follows (`routedPath`). React's own handlers run first, so a menu
 * still closes, and a `Link` it has routed already is left alone.
 */
export function AnchorNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const path = clickedPath(event);
      if (path === null) return;
      event.preventDefault();
      navigate(path);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
  return null;
}

import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * Markdown rendered and sanitised by the server. Links to the site's own
 * pages inside it navigate without a full page load.
 */
export function Prose({ html }: { html: string }) {
  const navigate = useNavigate();
  function onClick(event: MouseEvent<HTMLDivElement>) {
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!anchor || !href || !href.startsWith('/') || href.startsWith('//') || anchor.target) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  }
  // The HTML is sanitised by the server (enrol_db::markdown).
  return <div className="prose" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}

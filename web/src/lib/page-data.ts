import type { PageEnvelope } from '../generated/PageEnvelope';

// `/api/page-data`: the same envelope the server embeds in a page, for any
// path of the site. A path that is no page answers 404 with the not-found
// page's envelope, which is a page like any other.

export function pageDataUrl(path: string): string {
  return `/api/page-data?path=${encodeURIComponent(path)}`;
}

export async function fetchPageData(path: string, signal: AbortSignal): Promise<PageEnvelope> {
  const response = await fetch(pageDataUrl(path), { headers: { accept: 'application/json' }, credentials: 'same-origin', signal });
  if (!response.headers.get('content-type')?.includes('application/json')) throw new Error(`No page data for ${path} (${response.status})`);
  return (await response.json()) as PageEnvelope;
}

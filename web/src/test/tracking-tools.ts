import type { TrackingConfig } from '../generated/TrackingConfig';

export const ALL_TOOLS: Omit<TrackingConfig, 'errorReporting'> = {
  tagManager: 'GTM-AB12CD',
  heap: '1234567890',
  clarity: 'clar1ty',
  metaPixel: '987654321',
  tiktok: 'TT_PIXEL-1',
  klaviyo: 'KlAv1',
};

/** Puts the configured tools' ids in the page, as the server does. */
export function embedTrackingConfig(config: Partial<TrackingConfig>): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = '__ENROL_TRACKING__';
  element.textContent = JSON.stringify({ tagManager: null, heap: null, clarity: null, metaPixel: null, tiktok: null, klaviyo: null, ...config });
  document.body.append(element);
}

/** The src of every script added to the head. */
export function headScriptSrcs(): string[] {
  return Array.from(document.head.querySelectorAll('script'), (script) => script.src);
}

/** Takes the tools, their stubs and the configuration off the page again. */
export function removeTools(): void {
  document.head.querySelectorAll('script').forEach((script) => script.remove());
  document.getElementById('__ENROL_TRACKING__')?.remove();
  for (const name of ['dataLayer', 'heap', 'clarity', 'fbq', '_fbq', 'ttq', 'TiktokAnalyticsObject', 'klaviyo', '_klOnsite'] as const) delete window[name];
}

// Analytics events for the tag manager and anything else listening on the
// page. §8: a tracking failure is logged and swallowed, never shown.

export type TrackingParams = Record<string, unknown>;

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export const TRACK_EVENT = 'enrol:track';

function swallow(name: string, send: () => void) {
  try {
    send();
  } catch (error) {
    console.warn(`Tracking ${name} failed`, error);
  }
}

/**
 * Pushes `{event: name, ...params}` to the tag manager's `dataLayer` when it
 * is on the page, and dispatches `enrol:track` on the window with
 * `{name, params}` for other listeners.
 */
export function track(name: string, params: TrackingParams): void {
  swallow(name, () => {
    if (Array.isArray(window.dataLayer)) window.dataLayer.push({ event: name, ...params });
  });
  swallow(name, () => {
    window.dispatchEvent(new CustomEvent(TRACK_EVENT, { detail: { name, params } }));
  });
}

// Analytics events (docs/product.md#tracking). The page only announces
// them; the consent feature passes each on to the tools the visitor has
// allowed. A tracking failure is logged and swallowed, never shown.

export type TrackingParams = Record<string, unknown>;

export const TRACK_EVENT = 'enrol:track';

/** Dispatches `enrol:track` on the window with `{name, params}`. */
export function track(name: string, params: TrackingParams): void {
  try {
    window.dispatchEvent(new CustomEvent(TRACK_EVENT, { detail: { name, params } }));
  } catch (error) {
    console.warn(`Tracking ${name} failed`, error);
  }
}

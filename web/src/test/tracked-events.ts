import { TRACK_EVENT } from '../lib/tracking';

/** Records the tracking events the page announces until `stop`. */
export function trackedEvents() {
  const events: { name: string; params: Record<string, unknown> }[] = [];
  const listener = (event: Event) => events.push((event as CustomEvent<{ name: string; params: Record<string, unknown> }>).detail);
  window.addEventListener(TRACK_EVENT, listener);
  return { events, stop: () => window.removeEventListener(TRACK_EVENT, listener) };
}

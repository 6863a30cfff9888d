import type { ErrorReporting } from '../generated/ErrorReporting';

/** Error reporting's settings the server put beside the page; none when it is off. */
export function readErrorReporting(): ErrorReporting | null {
  const text = document.getElementById('__ENROL_TRACKING__')?.textContent;
  if (!text) return null;
  try {
    const value = (JSON.parse(text) as { errorReporting?: unknown }).errorReporting;
    if (typeof value !== 'object' || value === null) return null;
    const { dsn, environment, replayUnmasked } = value as Record<string, unknown>;
    return typeof dsn === 'string' && typeof environment === 'string' ? { dsn, environment, replayUnmasked: replayUnmasked === true } : null;
  } catch {
    return null;
  }
}

/**
 * Starts error reporting (decision 013) when the server configured it: its code loads
 * after the page has loaded and the browser is idle, never before.
 */
export function startErrorReporting(): void {
  const config = readErrorReporting();
  if (!config) return;
  const start = () =>
    void import('./sentry-client').then(
      ({ startSentry }) => startSentry(config),
      (error: unknown) => console.warn('Error reporting could not start', error),
    );
  const whenIdle = () => setTimeout(start, 0);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

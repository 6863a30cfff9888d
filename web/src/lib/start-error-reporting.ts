import { readErrorReporting } from './error-reporting';

/**
 * Starts error reporting (§8) when the server configured it: its code loads
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

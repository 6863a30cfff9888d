import { browserTracingIntegration, captureException, init, replayIntegration } from '@sentry/browser';
import type { ErrorReporting } from '../generated/ErrorReporting';
import { isIgnored, NOT_FOUND_TRANSACTION } from './error-reporting';
import { sendReportsTo } from './report-error';

// Sentry in the browser (decision 013), loaded only once the page is
// interactive and only when the server configured it, so no page's first
// JavaScript grows. Traces and replays are sampled at 1; replays
// mask text and inputs and block media unless the college turns that off
// (SENTRY_REPLAY_UNMASK), because the checkout holds names, emails and
// phone numbers (UK GDPR).

/** The page shown is the not-found page (the app marks the status on the document). */
const onNotFoundPage = () => document.documentElement.dataset.status === '404';

export function startSentry({ dsn, environment, replayUnmasked }: ErrorReporting): void {
  init({
    dsn,
    environment,
    sendDefaultPii: false,
    tracesSampleRate: 1,
    replaysSessionSampleRate: 1,
    replaysOnErrorSampleRate: 1,
    integrations: [
      browserTracingIntegration(),
      // Uncompressed: the compression worker would need the CSP to allow blob: scripts.
      replayIntegration({ maskAllText: !replayUnmasked, maskAllInputs: !replayUnmasked, blockAllMedia: !replayUnmasked, useCompression: false }),
    ],
    beforeSend(event) {
      const message = event.message ?? event.exception?.values?.map((e) => `${e.type ?? ''}: ${e.value ?? ''}`).join('\n');
      return isIgnored(message, event.transaction) ? null : event;
    },
    beforeSendTransaction(event) {
      return isIgnored(null, onNotFoundPage() ? NOT_FOUND_TRANSACTION : event.transaction) ? null : event;
    },
  });
  sendReportsTo((error, context) => captureException(error, { extra: context }));
}

// Errors the user does not need to act on but the college should hear about.
// For now they only reach the browser console; an error-reporting service
// comes later and will be called from here.

export type ErrorContext = Record<string, unknown>;

export function reportError(error: unknown, context: ErrorContext): void {
  console.warn('Reported error', error, context);
}

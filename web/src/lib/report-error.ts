// Errors the user does not need to act on but the college should hear
// about: to the console, and to error reporting once it has started
// (decision 013); what is reported before then waits, a few at most.

export type ErrorContext = Record<string, unknown>;

type Sink = (error: unknown, context: ErrorContext) => void;

let sink: Sink | null = null;
const waiting: [unknown, ErrorContext][] = [];
const MAX_WAITING = 20;

export function reportError(error: unknown, context: ErrorContext): void {
  console.warn('Reported error', error, context);
  if (sink) sink(error, context);
  else if (waiting.length < MAX_WAITING) waiting.push([error, context]);
}

/** Where reported errors go from now on, starting with those that waited. */
export function sendReportsTo(next: Sink): void {
  sink = next;
  for (const [error, context] of waiting.splice(0)) next(error, context);
}

import type { Cmi } from '../../generated/Cmi';

// What the player page accepts from a SCORM package's frame (decision 026):
// a commit message of the shape the site's runtime posts
// (src/scorm-runtime/), with only the elements the server keeps, each a
// string. Anything else is ignored: the frame runs the package's scripts,
// which may post what they like.

const KIND = 'enrol-scorm-commit';

const ELEMENTS: readonly (keyof Cmi)[] = [
  'lessonStatus', 'completionStatus', 'successStatus', 'progressMeasure', 'scoreRaw', 'scoreMin', 'scoreMax', 'scoreScaled',
  'location', 'suspendData', 'sessionTime', 'totalTime',
];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The commit a message carries, or `null` for any other message. */
export function commitOf(data: unknown): Cmi | null {
  if (!isRecord(data) || data.kind !== KIND || !isRecord(data.cmi)) return null;
  const cmi: Record<string, string> = {};
  for (const [key, value] of Object.entries(data.cmi)) {
    if (!(ELEMENTS as readonly string[]).includes(key) || typeof value !== 'string') return null;
    cmi[key] = value;
  }
  return cmi;
}

/**
 * Sends commits one at a time, in order; while one is on its way only the
 * newest waiting is kept, as each carries the whole state.
 */
export function commitQueue(send: (cmi: Cmi) => Promise<void>): (cmi: Cmi) => void {
  let sending = false;
  let waiting: Cmi | null = null;
  async function drain() {
    sending = true;
    while (waiting) {
      const next = waiting;
      waiting = null;
      await send(next);
    }
    sending = false;
  }
  return (cmi) => {
    waiting = cmi;
    if (!sending) void drain();
  };
}

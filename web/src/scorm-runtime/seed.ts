import type { Cmi } from '../generated/Cmi';
import type { ScormVersion } from '../generated/ScormVersion';

// What the server seeds a package page's runtime with (decision 026,
// `http::scorm_files`): the `data-seed` of the runtime's own script tag.

export interface Seed {
  version: ScormVersion;
  /** The player page's origin: commits are posted there only. */
  origin: string;
  learnerId: string;
  learnerName: string;
  entry: 'resume' | 'ab-initio';
  cmi: Cmi;
}

/** The message a package's frame posts to the player page for each commit. */
export interface CommitMessage {
  kind: 'enrol-scorm-commit';
  cmi: Cmi;
}

/** The seed on the script that is running, or `null` when it has none. */
export function readSeed(script: HTMLOrSVGScriptElement | null): Seed | null {
  const text = script instanceof HTMLScriptElement ? script.dataset.seed : undefined;
  if (!text) return null;
  try {
    return JSON.parse(text) as Seed;
  } catch {
    return null;
  }
}

/** The values set: an empty value is the runtime's "not set". */
export function defined(values: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') kept[key] = value;
  }
  return kept;
}

/** The elements of a commit that are set. */
export const present = (values: Partial<Record<keyof Cmi, string>>): Cmi => defined(values);

/** Posts the elements of a commit that are set to the player page at `origin`, and nowhere else. */
export function postCommit(values: Partial<Record<keyof Cmi, string>>, origin: string): void {
  const message: CommitMessage = { kind: 'enrol-scorm-commit', cmi: present(values) };
  window.parent.postMessage(message, origin);
}

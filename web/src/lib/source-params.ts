import { readText } from './storage';

// §3 Source params: the landing URL's query parameters, kept in local storage
// as marketing source data. Storing them is non-essential, so it waits for the
// visitor's consent (no consent banner yet); orders only send what is there.

export const SOURCE_PARAMS_KEY = 'sourceParams';

/** The stored source params; values that are not text are dropped. */
export function readSourceParams(): Record<string, string> {
  const raw = readText('local', SOURCE_PARAMS_KEY);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch (error) {
    console.warn(`Ignoring unreadable ${SOURCE_PARAMS_KEY} in browser storage`, error);
    return {};
  }
}

import { readText, removeItem, writeJson } from './storage';

// Source params: the landing URL's query parameters, kept in local storage
// as marketing source data. Storing them is non-essential: the consent feature
// saves them only once marketing is granted and clears them when it is not.
// Orders only send what is there.

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

/**
 * Keeps the query parameters of `search` (the landing URL's `?…`), every
 * one of them. A landing without any keeps what an earlier one stored.
 */
export function saveSourceParams(search: string): void {
  const params = Object.fromEntries(new URLSearchParams(search));
  if (Object.keys(params).length > 0) writeJson('local', SOURCE_PARAMS_KEY, params);
}

export function clearSourceParams(): void {
  removeItem('local', SOURCE_PARAMS_KEY);
}

// Browser storage that never breaks the page: private windows, full quotas
// and hand-edited values are logged and treated as empty.

type Area = 'session' | 'local';

function area(which: Area): Storage | null {
  try {
    return which === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}

/** The stored list under `key`, keeping only entries that pass `isItem`. */
export function readList<T>(which: Area, key: string, isItem: (value: unknown) => value is T): T[] {
  const raw = readText(which, key);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) throw new Error('not a list');
    const items = parsed.filter(isItem);
    if (items.length !== parsed.length) console.warn(`Dropped ${parsed.length - items.length} unreadable entries from ${key}`);
    return items;
  } catch (error) {
    console.warn(`Ignoring unreadable ${key} in browser storage`, error);
    area(which)?.removeItem(key);
    return [];
  }
}

/** The stored value under `key` when it passes `isValue`; anything else is dropped and read as null. */
export function readJson<T>(which: Area, key: string, isValue: (value: unknown) => value is T): T | null {
  const raw = readText(which, key);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isValue(parsed)) throw new Error('not the expected shape');
    return parsed;
  } catch (error) {
    console.warn(`Ignoring unreadable ${key} in browser storage`, error);
    area(which)?.removeItem(key);
    return null;
  }
}

/** The stored text under `key`, or null when there is none or storage is unavailable. */
export function readText(which: Area, key: string): string | null {
  try {
    return area(which)?.getItem(key) ?? null;
  } catch (error) {
    console.warn(`Could not read ${key} from browser storage`, error);
    return null;
  }
}

export function writeText(which: Area, key: string, value: string): void {
  try {
    area(which)?.setItem(key, value);
  } catch (error) {
    console.warn(`Could not save ${key} in browser storage`, error);
  }
}

export function writeJson(which: Area, key: string, value: unknown): void {
  writeText(which, key, JSON.stringify(value));
}

export function removeItem(which: Area, key: string): void {
  try {
    area(which)?.removeItem(key);
  } catch (error) {
    console.warn(`Could not remove ${key} from browser storage`, error);
  }
}

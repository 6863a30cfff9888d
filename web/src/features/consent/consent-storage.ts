import { readText, writeJson } from '../../lib/storage';

// The visitor's cookie choice. Keeping the choice itself is strictly
// necessary storage (PECR), so it needs no consent of its own.

export const CONSENT_KEY = 'consent';

/** What the visitor allows; `decided` is false until they have chosen. */
export interface Consent {
  analytics: boolean;
  marketing: boolean;
  decided: boolean;
}

export type ConsentChoice = Pick<Consent, 'analytics' | 'marketing'>;

export const UNDECIDED: Consent = { analytics: false, marketing: false, decided: false };

/** The stored shape; a new version asks everyone again. */
interface StoredConsent {
  version: 1;
  analytics: boolean;
  marketing: boolean;
  decidedAt: string;
}

function isStoredConsent(value: unknown): value is StoredConsent {
  if (typeof value !== 'object' || value === null) return false;
  const stored = value as Record<string, unknown>;
  return stored.version === 1 && typeof stored.analytics === 'boolean' && typeof stored.marketing === 'boolean' && typeof stored.decidedAt === 'string';
}

/** The stored choice; anything unreadable counts as no choice yet. */
export function parseConsent(raw: string | null): Consent {
  if (raw === null) return UNDECIDED;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isStoredConsent(parsed)) throw new Error('not a consent record');
    return { analytics: parsed.analytics, marketing: parsed.marketing, decided: true };
  } catch (error) {
    console.warn(`Ignoring unreadable ${CONSENT_KEY} in browser storage`, error);
    return UNDECIDED;
  }
}

export function readConsent(): Consent {
  return parseConsent(readText('local', CONSENT_KEY));
}

export function saveConsent(choice: ConsentChoice, now: Date = new Date()): Consent {
  const stored: StoredConsent = { version: 1, analytics: choice.analytics, marketing: choice.marketing, decidedAt: now.toISOString() };
  writeJson('local', CONSENT_KEY, stored);
  return { ...choice, decided: true };
}

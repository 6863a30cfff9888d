import { describe, expect, it, vi } from 'vitest';
import { CONSENT_KEY, parseConsent, readConsent, saveConsent, UNDECIDED } from './consent-storage';

describe('consent storage', () => {
  it('is undecided when nothing is stored', () => {
    expect(readConsent()).toEqual(UNDECIDED);
  });

  it('stores the choice with its version and time', () => {
    expect(saveConsent({ analytics: true, marketing: false }, new Date('2031-03-04T10:00:00Z'))).toEqual({ analytics: true, marketing: false, decided: true });
    expect(JSON.parse(localStorage.getItem(CONSENT_KEY)!)).toEqual({ version: 1, analytics: true, marketing: false, decidedAt: '2031-03-04T10:00:00.000Z' });
    expect(readConsent()).toEqual({ analytics: true, marketing: false, decided: true });
  });

  it.each([
    ['not JSON', '{nope'],
    ['not an object', '"yes"'],
    ['null', 'null'],
    ['another version', JSON.stringify({ version: 2, analytics: true, marketing: true, decidedAt: '2031-03-04T10:00:00Z' })],
    ['a choice that is not true or false', JSON.stringify({ version: 1, analytics: 'yes', marketing: true, decidedAt: '2031-03-04T10:00:00Z' })],
    ['no time', JSON.stringify({ version: 1, analytics: true, marketing: true })],
  ])('treats %s as undecided', (_case, raw) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(parseConsent(raw)).toEqual(UNDECIDED);
    expect(warn).toHaveBeenCalledOnce();
  });
});

import { describe, expect, it } from 'vitest';
import { balanceDueLabel, londonToday } from './labels';

describe('balanceDueLabel', () => {
  it('names a day to come, today, or how long the balance has been owed', () => {
    expect(balanceDueLabel('2026-12-29', '2026-11-26')).toBe('due 29 Dec 2026');
    expect(balanceDueLabel('2026-11-26', '2026-11-26')).toBe('due today');
    expect(balanceDueLabel('2026-11-21', '2026-11-26')).toBe('overdue since 21 Nov 2026');
  });
});

describe('londonToday', () => {
  it('is the London day, which differs from UTC late on a summer evening', () => {
    expect(londonToday(new Date('2026-07-01T23:30:00Z'))).toBe('2026-07-02');
    expect(londonToday(new Date('2026-12-01T23:30:00Z'))).toBe('2026-12-01');
  });
});

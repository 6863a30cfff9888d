import { describe, expect, it } from 'vitest';
import { balanceDueWords } from './balance-due';

describe('balanceDueWords', () => {
  it('names a day still to come', () => {
    expect(balanceDueWords('2026-12-29', '2026-11-26')).toBe('due by Tuesday 29th December');
  });

  it('says due now on the day and after it, never a past date', () => {
    expect(balanceDueWords('2026-11-26', '2026-11-26')).toBe('due now');
    expect(balanceDueWords('2026-11-21', '2026-11-26')).toBe('due now');
  });

  it('has words for a booking without a date', () => {
    expect(balanceDueWords(null, '2026-11-26')).toBe('due before your training starts');
  });
});

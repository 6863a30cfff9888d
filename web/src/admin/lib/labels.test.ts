import { describe, expect, it } from 'vitest';
import { balanceDueLabel, londonToday, seatsFilled, seatsFree } from './labels';

describe('balanceDueLabel', () => {
  it('names a day to come, today, or how long the balance has been owed', () => {
    expect(balanceDueLabel('2026-12-29', '2026-11-26')).toBe('due 29 Dec 2026');
    expect(balanceDueLabel('2026-11-26', '2026-11-26')).toBe('due today');
    expect(balanceDueLabel('2026-11-21', '2026-11-26')).toBe('overdue since 21 Nov 2026');
  });
});

describe('seatsFilled', () => {
  it('says the seats booked, those taken elsewhere and those held, leaving out what is none', () => {
    expect(seatsFilled({ seats: 16, booked: 12, takenElsewhere: 0, held: 2 })).toBe('12 booked and 2 held of 16 seats');
    expect(seatsFilled({ seats: 8, booked: 1, takenElsewhere: 4, held: 1 })).toBe('1 booked, 4 taken elsewhere and 1 held of 8 seats');
    expect(seatsFilled({ seats: 8, booked: 0, takenElsewhere: 4, held: 0 })).toBe('0 booked and 4 taken elsewhere of 8 seats');
    expect(seatsFilled({ seats: 8, booked: 3, takenElsewhere: 0, held: 0 })).toBe('3 booked of 8 seats');
    expect(seatsFree({ seats: 8, booked: 1, takenElsewhere: 4, held: 1 })).toBe(2);
  });
});

describe('londonToday', () => {
  it('is the London day, which differs from UTC late on a summer evening', () => {
    expect(londonToday(new Date('2026-07-01T23:30:00Z'))).toBe('2026-07-02');
    expect(londonToday(new Date('2026-12-01T23:30:00Z'))).toBe('2026-12-01');
  });
});

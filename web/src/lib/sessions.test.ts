import { describe, expect, it } from 'vitest';
import type { Session } from '../generated/Session';
import { bookedDateLabel, hasFreeSeat, seatsLeft, sessionLabel, sessionTypeLabel } from './sessions';

const session = (overrides: Partial<Session>): Session => ({
  id: 's1', start: '2026-12-15T10:00:00', end: '2026-12-15T16:00:00', date: '2026-12-15',
  price: 34500, seat_price: 34500, seats: 8, registrations: 3, held: 0, type: 'onsite', status: 'active',
  ...overrides,
});

describe('sessions', () => {
  it('labels the three session types as the spec names them', () => {
    expect(sessionTypeLabel('onsite')).toBe('On site');
    expect(sessionTypeLabel('virtual')).toBe('Virtual');
    expect(sessionTypeLabel('blended')).toBe('Blended');
  });

  it('offers only sessions with a seat neither registered nor held', () => {
    expect(hasFreeSeat(session({ registrations: 7 }))).toBe(true);
    expect(hasFreeSeat(session({ registrations: 8 }))).toBe(false);
    expect(hasFreeSeat(session({ registrations: 6, held: 1 }))).toBe(true);
    expect(hasFreeSeat(session({ registrations: 6, held: 2 }))).toBe(false);
    expect(hasFreeSeat(session({ registrations: 9 }))).toBe(false);
  });

  it('counts the seats left, less those held for unpaid bookings', () => {
    expect(seatsLeft(session({ registrations: 7 }))).toBe('1 seat left');
    expect(seatsLeft(session({ registrations: 2 }))).toBe('6 seats left');
    expect(seatsLeft(session({ registrations: 2, held: 5 }))).toBe('1 seat left');
    expect(seatsLeft(session({ registrations: 5, held: 5 }))).toBe('0 seats left');
  });

  it("labels a session 'EEEE do MMMM' with its type", () => {
    expect(sessionLabel(session({ type: 'virtual' }))).toBe('Tuesday 15th December · Virtual');
  });

  it('labels a booked course’s date with its type, or says it is to be arranged', () => {
    expect(bookedDateLabel({ date: '2026-12-15', sessionType: 'onsite' })).toBe('Tuesday 15th December · On site');
    expect(bookedDateLabel({ date: '2026-12-15', sessionType: null })).toBe('Tuesday 15th December');
    expect(bookedDateLabel({ date: null, sessionType: null })).toBe('Date to be arranged');
  });
});

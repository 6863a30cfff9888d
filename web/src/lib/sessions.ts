import type { EnrollmentLine } from '../generated/EnrollmentLine';
import type { Session } from '../generated/Session';
import type { SessionType } from '../generated/SessionType';
import { formatSessionDate } from './dates';

const TYPE_LABELS: Record<SessionType, string> = { onsite: 'On site', virtual: 'Virtual', blended: 'Blended' };

export function sessionTypeLabel(type: SessionType): string {
  return TYPE_LABELS[type];
}

/** The seats neither registered nor held for an unpaid booking, as the server's `Session::free_seats` counts them (decision 009). */
function freeSeats(session: Session): number {
  return Math.max(session.seats - session.registrations - session.held, 0);
}

/** Only sessions with a free seat are offered (docs/product.md#bookings). */
export function hasFreeSeat(session: Session): boolean {
  return freeSeats(session) > 0;
}

export function seatsLeft(session: Session): string {
  const left = freeSeats(session);
  return left === 1 ? '1 seat left' : `${left} seats left`;
}

/** Tuesday 15th December · On site */
export function sessionLabel(session: Session): string {
  return `${formatSessionDate(session.date)} · ${sessionTypeLabel(session.type)}`;
}

/** A booked course's date: Tuesday 15th December · On site, or 'Date to be arranged'. */
export function bookedDateLabel(line: Pick<EnrollmentLine, 'date' | 'sessionType'>): string {
  if (!line.date) return 'Date to be arranged';
  const date = formatSessionDate(line.date);
  return line.sessionType ? `${date} · ${sessionTypeLabel(line.sessionType)}` : date;
}

import type { EnrolmentLine } from '../generated/EnrolmentLine';
import type { Session } from '../generated/Session';
import type { SessionType } from '../generated/SessionType';
import { formatSessionDate } from './dates';

const TYPE_LABELS: Record<SessionType, string> = { onsite: 'On site', virtual: 'Virtual', blended: 'Blended' };

export function sessionTypeLabel(type: SessionType): string {
  return TYPE_LABELS[type];
}

/** §9: only sessions whose registration count differs from seats are offered. */
export function hasFreeSeat(session: Session): boolean {
  return session.registrations !== session.seats;
}

export function seatsLeft(session: Session): string {
  const left = Math.max(session.seats - session.registrations, 0);
  return left === 1 ? '1 seat left' : `${left} seats left`;
}

/** Tuesday 15th December · On site */
export function sessionLabel(session: Session): string {
  return `${formatSessionDate(session.date)} · ${sessionTypeLabel(session.type)}`;
}

/** A booked course's date: Tuesday 15th December · On site, or 'Date to be arranged'. */
export function bookedDateLabel(line: Pick<EnrolmentLine, 'date' | 'sessionType'>): string {
  if (!line.date) return 'Date to be arranged';
  const date = formatSessionDate(line.date);
  return line.sessionType ? `${date} · ${sessionTypeLabel(line.sessionType)}` : date;
}

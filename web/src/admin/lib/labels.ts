import { formatShortDate } from '../../lib/dates';
import type { Access, CodeState, EnquiryKind, EnquiryStatus, OfflineMethod, OnlineOrderStatus, OrderStatus, PartStatus, PlanStatus, Role, Session } from './api-types';

// The back office's words for the API's closed sets, and its dates, times
// and seats said one way on every screen.

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', staff: 'Staff', tutor: 'Tutor', editor: 'Editor' };

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Awaiting payment',
  deposit: 'Deposit paid',
  completed: 'Paid in full',
  failed: 'Payment failed',
  cancelled: 'Cancelled',
};

export const ONLINE_ORDER_STATUS_LABELS: Record<OnlineOrderStatus, string> = {
  pending: 'Awaiting payment',
  processing: 'Payment on its way',
  paid: 'Paid',
  failed: 'Payment failed',
};

/** Where a student's access to an online course stands, with its day. */
export function accessLabel(access: Access): string {
  switch (access.state) {
    case 'active':
      return `Active to ${formatShortDate(access.until)}`;
    case 'expired':
      return `Ended ${formatShortDate(access.ended)}`;
    case 'revoked':
      return 'Withdrawn';
    case 'notStarted':
      return `Opens ${formatShortDate(access.opens)}`;
  }
}

export const PLAN_STATUS_LABELS: Record<PlanStatus, string> = {
  awaiting_fee: 'Awaiting the booking fee',
  active: 'Active',
  paused: 'Paused',
  completed: 'Paid in full',
  cancelled: 'Cancelled',
};

export const PART_STATUS_LABELS: Record<PartStatus, string> = {
  scheduled: 'Scheduled',
  charging: 'Being charged',
  retrying: 'Refused, to be tried again',
  failed: 'Refused every time',
  paid: 'Paid',
  cancelled: 'Cancelled',
};

export const CODE_STATE_LABELS: Record<CodeState, string> = { active: 'Active', expired: 'Expired', usedUp: 'Used up' };

export const ENQUIRY_STATUS_LABELS: Record<EnquiryStatus, string> = { new: 'New', in_progress: 'In progress', done: 'Done' };

/** The inbox's kinds: the site's enquiry forms, and low ratings after training (decision 034). */
export const ENQUIRY_KIND_LABELS: Record<EnquiryKind | 'feedback', string> = {
  contact: 'Website enquiry',
  callback: 'Callback request',
  business: 'Business training',
  models: 'Model sign-up',
  feedback: 'Low feedback rating',
};

export const OFFLINE_METHOD_LABELS: Record<OfflineMethod, string> = {
  bank_transfer: 'Bank transfer',
  card_by_phone: 'Card by phone',
  cash: 'Cash',
};

/** A label from `labels`, or the value itself for one the browser does not know yet. */
export function labelOf(labels: Record<string, string>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : value;
}

/** Choices for a select from a label table, in its order. */
export function choicesOf<V extends string>(labels: Record<V, string>): { value: V; label: string }[] {
  return (Object.entries(labels) as [V, string][]).map(([value, label]) => ({ value, label }));
}

const LONDON = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', dateStyle: 'medium', timeStyle: 'short' });
const LONDON_DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', dateStyle: 'medium' });

/** An RFC 3339 instant on the UK wall clock: 1 Dec 2026, 10:15. */
export function formatInstant(instant: string): string {
  return LONDON.format(new Date(instant));
}

/** The UK day of an RFC 3339 instant: 1 Dec 2026. */
export function formatInstantDay(instant: string): string {
  return LONDON_DAY.format(new Date(instant));
}

/** Today's date in London, `YYYY-MM-DD` ('en-CA' writes dates so). */
export function londonToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(now);
}

/**
 * When a booking's balance is due, for staff: the day while it is to come,
 * 'due today', or how long it has been owed (never a past day as if to come).
 */
export function balanceDueLabel(balanceDueOn: string, today = londonToday()): string {
  if (balanceDueOn > today) return `due ${formatShortDate(balanceDueOn)}`;
  return balanceDueOn === today ? 'due today' : `overdue since ${formatShortDate(balanceDueOn)}`;
}

/** 15 Dec 2026, 10:00–16:00 */
export function sessionWhen(session: Pick<Session, 'date' | 'startTime' | 'endTime'>): string {
  return `${formatShortDate(session.date)}, ${session.startTime}–${session.endTime}`;
}

type SeatCounts = Pick<Session, 'seats' | 'booked' | 'takenElsewhere' | 'held'>;

/** Seats booked (as the roster lists them), taken elsewhere and held, of those on sale: '12 booked, 4 taken elsewhere and 2 held of 16 seats'. */
export function seatsFilled(session: SeatCounts): string {
  const parts = [`${session.booked} booked`];
  if (session.takenElsewhere > 0) parts.push(`${session.takenElsewhere} taken elsewhere`);
  if (session.held > 0) parts.push(`${session.held} held`);
  const last = parts.pop() ?? '';
  return `${parts.length > 0 ? `${parts.join(', ')} and ${last}` : last} of ${session.seats} seats`;
}

/** Seats taken, whether booked here, elsewhere, or held. */
export const seatsTaken = (session: SeatCounts) => session.booked + session.takenElsewhere + session.held;

/** Seats neither booked nor held. */
export function seatsFree(session: SeatCounts): number {
  return Math.max(session.seats - seatsTaken(session), 0);
}

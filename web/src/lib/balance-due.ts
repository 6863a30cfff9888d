import { formatSessionDate } from './dates';

/**
 * How a booking's balance reads beside its amount: 'due by Tuesday 15th
 * December', or 'due now' on or after that day, so a due date shown is never
 * one already past (a booking moved into its last 14 days owes it now).
 * `balanceDueOn` and `today` are London days, `YYYY-MM-DD`.
 */
export function balanceDueWords(balanceDueOn: string | null, today: string): string {
  if (!balanceDueOn) return 'due before your training starts';
  return balanceDueOn <= today ? 'due now' : `due by ${formatSessionDate(`${balanceDueOn}T00:00:00`)}`;
}

import type { Instalment } from '../../generated/Instalment';
import type { Quote } from '../../generated/Quote';
import { PAYMENT_PLAN_THRESHOLD } from './pricing';

// The instalment plans a booking may have (decision 036), the same rules as
// crates/enrol-domain/src/instalments.rs; both run
// crates/enrol-domain/src/instalment-vectors.json. The page previews the
// parts; the server works them out again and refuses an order whose parts
// differ from the ones the student was shown.

/** The fewest parts a plan has. */
export const LEAST_INSTALMENTS = 2;

const pad = (n: number) => String(n).padStart(2, '0');

/** The day part `number` of a plan agreed on `agreedOn` is due: that many calendar months later, the month's last day at most. */
export function partDueOn(agreedOn: string, number: number): string {
  const [year, month, day] = agreedOn.split('-').map(Number) as [number, number, number];
  const months = month - 1 + number;
  const y = year + Math.floor(months / 12);
  const m = (months % 12) + 1;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${y}-${pad(m)}-${pad(Math.min(day, last))}`;
}

/** The most parts a balance due on `dueOn` may be spread over, agreed on `agreedOn`: the last on or before the due day. */
export function mostInstalments(agreedOn: string, dueOn: string, maxInstalments: number): number {
  let most = 0;
  for (let n = 1; n <= maxInstalments && partDueOn(agreedOn, n) <= dueOn; n += 1) most = n;
  return most;
}

/** The parts of `balance` over `count` months from `agreedOn`: equal in whole pence, the first carrying the pennies left over. */
export function schedule(balance: number, count: number, agreedOn: string): Instalment[] {
  const each = Math.floor(balance / count);
  const leftOver = balance - each * count;
  return Array.from({ length: count }, (_, index) => ({
    number: index + 1,
    dueOn: partDueOn(agreedOn, index + 1),
    amount: index === 0 ? each + leftOver : each,
  }));
}

/** The counts a booking priced `figures`, its balance due on `dueOn`, may choose when agreed on `agreedOn`; none: no plan. */
export function planChoices(figures: Quote, agreedOn: string, dueOn: string, maxInstalments: number): number[] {
  if (figures.total < PAYMENT_PLAN_THRESHOLD || figures.balance <= 0) return [];
  const most = mostInstalments(agreedOn, dueOn, maxInstalments);
  return most < LEAST_INSTALMENTS ? [] : Array.from({ length: most - LEAST_INSTALMENTS + 1 }, (_, i) => i + LEAST_INSTALMENTS);
}

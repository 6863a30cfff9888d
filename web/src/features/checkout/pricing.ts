import type { Discount } from '../../generated/Discount';
import type { LinePrice } from '../../generated/LinePrice';
import type { PaymentMode } from '../../generated/PaymentMode';
import type { Quote } from '../../generated/Quote';
import type { PaymentMethod } from '../../lib/payment-methods';

// The pricing rules of an in-person enrolment (docs/product.md#pricing), the same as
// crates/enrol-domain/src/enrollment.rs, over its types generated from Rust
// (`LinePrice`; `Discount`: pence off, or a whole percentage of what the
// lines its code applies to add up to). Both are tested against
// crates/enrol-domain/src/pricing-vectors.json.
// The page only previews these figures: the server prices the order itself
// and refuses any that differ.

/** The booking fee (deposit) per course. */
export const BOOKING_FEE = 10000;
/** The payment-plan panel is offered from this total. */
export const PAYMENT_PLAN_THRESHOLD = 100000;
/** The balance after the booking fee is due this many days before training. */
export const BALANCE_DUE_DAYS = 14;
/** Clearpay's UK limit: it is not offered on larger totals. */
export const CLEARPAY_LIMIT = 120000;

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/** What the discount takes off `reached`, what its code's lines add up to: never more than that; percentages round halves up. */
export function discountOff(discount: Discount, reached: number): number {
  const off =
    discount.type === 'pound' ? discount.value : Math.trunc((reached * clamp(discount.value, 0, 100) + 50) / 100);
  return clamp(off, 0, reached);
}

/** Whether a code limited to `courseIds` (`null`: every course) takes money off course `courseId` (decision 017). */
export function codeReaches(courseIds: readonly string[] | null, courseId: string): boolean {
  return courseIds === null || courseIds.includes(courseId);
}

const lineAmount = (line: LinePrice) => line.price + (line.kit_pounds ?? 0) * 100;

export function quote(lines: LinePrice[], discount: Discount | null): Quote {
  const subtotal = lines.reduce((sum, line) => sum + lineAmount(line), 0);
  const reached = lines.reduce((sum, line) => sum + (line.code_applies ? lineAmount(line) : 0), 0);
  const off = discount ? discountOff(discount, reached) : 0;
  const total = subtotal - off;
  const deposit = Math.min(BOOKING_FEE * lines.length, total);
  return { subtotal, discount: off, total, deposit, balance: total - deposit };
}

/** What is charged now in `mode`. */
export function amountDue(figures: Quote, mode: PaymentMode): number {
  return mode === 'fee' ? figures.deposit : figures.total;
}

/** The payment-plan panel is shown from £1,000. */
export function offersPaymentPlan(figures: Quote): boolean {
  return figures.total >= PAYMENT_PLAN_THRESHOLD;
}

/** The methods offered for `mode` and `total`: Klarna and Clearpay pay the college in full, so only the full total. */
export function paymentMethods(mode: PaymentMode, total: number): PaymentMethod[] {
  if (mode === 'fee') return ['card'];
  return total > CLEARPAY_LIMIT ? ['card', 'klarna'] : ['card', 'klarna', 'afterpay_clearpay'];
}

/** A buy-now-pay-later method pays the full total; a card pays the booking fee. */
export function modeFor(method: PaymentMethod): PaymentMode {
  return method === 'card' ? 'fee' : 'full';
}

/** The checkout form's `selected`: 'card', or 'klarna' for any buy-now-pay-later method. */
export function selectedFor(method: PaymentMethod): 'card' | 'klarna' {
  return method === 'card' ? 'card' : 'klarna';
}

/**
 * The balance is due 14 days before the first day of training; booked
 * later than that, on the day of booking, `today`: never a date already
 * past (`YYYY-MM-DD` in and out; enrol_domain's `balance_due_on`, both run
 * `balance-due-vectors.json`).
 */
export function balanceDueOn(firstTrainingDay: string, today: string): string {
  const [year, month, day] = firstTrainingDay.split('-').map(Number) as [number, number, number];
  const fourteenBefore = new Date(Date.UTC(year, month - 1, day - BALANCE_DUE_DAYS)).toISOString().slice(0, 10);
  const bookedOn = today < firstTrainingDay ? today : firstTrainingDay;
  return fourteenBefore > bookedOn ? fourteenBefore : bookedOn;
}

/** Whether a booking made `today` would owe its balance at once: training starts within 14 days. */
export function balanceDueAtOnce(firstTrainingDay: string | null, today: string): boolean {
  return firstTrainingDay !== null && balanceDueOn(firstTrainingDay, today) <= today;
}

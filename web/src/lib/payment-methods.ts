// The payment methods a buyer can choose (docs/product.md#checkout): a card, or Klarna and
// Clearpay, which pay the college in full. The checkout offers them; the
// account lists the payments made with them.

import type { PaymentMethod } from '../generated/PaymentMethod';

export type { PaymentMethod };

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = { card: 'Card', klarna: 'Klarna', afterpay_clearpay: 'Clearpay' };

/** A recorded payment's method in words; a gateway that did not say which is just an online payment. */
export function paymentMethodLabel(method: string): string {
  return Object.hasOwn(PAYMENT_METHOD_LABELS, method) ? PAYMENT_METHOD_LABELS[method as PaymentMethod] : 'Online payment';
}

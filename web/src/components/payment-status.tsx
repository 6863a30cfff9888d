import type { ReactNode } from 'react';
import { Link } from '../lib/router';
import { ACCOUNT_PATH } from '../lib/paths';

// Where a buyer lands after paying (an enrolment, an online order, a
// balance): the order's state as the payment provider's webhooks left it,
// said the same way on every page, the reference to quote and, once paid,
// the way to the account, where the booking, payments and receipts are.

/**
 * `waiting`: no word from the provider yet; `arriving`: a payment that takes
 * days (a bank debit); `confirmed` and `failed` are final.
 */
export type PaymentState = 'waiting' | 'arriving' | 'confirmed' | 'failed';

interface PaymentStatusProps {
  state: PaymentState;
  /** Still not confirmed after the page stopped asking. */
  gaveUp: boolean;
  heading: string;
  /** What the page says once the payment is confirmed, and when it failed. */
  confirmed: ReactNode;
  failed: ReactNode;
  /** What the email brings once the payment is confirmed: 'booking confirmation', 'receipt'. */
  mailed: string;
  /** What an `arriving` payment means for this order. */
  arriving?: string;
  /** 'Booking reference', with the order's reference (`B-7K3P9`). */
  reference: [label: string, value: string];
}

export function PaymentStatus({ state, gaveUp, heading, confirmed, failed, mailed, arriving, reference }: PaymentStatusProps) {
  return (
    <>
      <h1>{heading}</h1>
      <div role="status" className="order-status">
        {state === 'confirmed' ? (
          <p>{confirmed}</p>
        ) : state === 'failed' ? (
          <p>{failed}</p>
        ) : gaveUp ? (
          <p>
            {`Your payment is taking longer than usual to confirm. We will email your ${mailed} once the payment is confirmed. If you have any questions, `}
            <Link to="/contact/">contact us</Link>.
          </p>
        ) : (
          <p>
            <span className="spinner" aria-hidden="true" />
            {state === 'arriving' && arriving
              ? `${arriving} This page updates by itself.`
              : 'We are waiting for the payment provider to confirm your payment. This page updates by itself.'}
          </p>
        )}
      </div>
      <p className="order-reference">{`${reference[0]}: ${reference[1]}`}</p>
      {state === 'confirmed' && (
        <p>
          <Link to={ACCOUNT_PATH}>Go to your account</Link>
        </p>
      )}
    </>
  );
}

import { useState } from 'react';
import { Link } from '../../lib/router';
import { BookingTable } from '../../components/booking-table';
import { PaymentStatus } from '../../components/payment-status';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import type { BalanceBooking } from '../../generated/BalanceBooking';
import type { BalancePage as BalancePageData } from '../../generated/BalancePage';
import type { IntentResponse } from '../../generated/IntentResponse';
import type { Page } from '../../generated/Page';
import { ApiError, postJson } from '../../lib/api';
import { balanceDueWords } from '../../lib/balance-due';
import { formatMoney } from '../../lib/money';
import type { PaymentMethod } from '../../lib/payment-methods';
import { usePendingPage } from '../../lib/use-pending-page';
import { CARD_FIELDS, validateCard, type CardField } from './checkout-rules';
import { confirmSandboxPayment, PaymentRefused, returnUrl } from './place-order';
import { BalancePlan } from './balance-plan';
import { EMPTY_CARD, SandboxPaymentElement } from './sandbox-payment-element';
import { StripePaymentElement, type StripeCheckout } from './stripe-payment-element';

// Decision 015: a booking's balance, paid in full or in part from the link of a
// reminder mail (no sign-in needed) or from the account. The amount is
// chosen first, then the payment intent for it is made and paid.

const TOKEN = /[?&]token=([0-9a-f]+)/;
// What a mailed link asks for, in pence: an instalment the bank refused (decision 036).
const SUGGESTED = /[?&]amount=(\d+)/;

interface PreparedPayment extends IntentResponse {
  payment_methods: PaymentMethod[];
  amount: number;
}

const isWaiting = (page: BalancePageData) => page.booking?.returnedPaymentRecorded === false;
const readBalance = (page: Page): BalancePageData | null => (page.kind === 'balance' ? page : null);

/** `250`, `250.5` or `£1,250.00` in pence; null when it is not an amount of money. */
export function pence(typed: string): number | null {
  const plain = typed.replace(/[£,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(plain)) return null;
  const [pounds, fraction = ''] = plain.split('.');
  return Number(pounds) * 100 + Number(fraction.padEnd(2, '0'));
}

/** What the amount field says is wrong, if anything: the server checks the same. */
export function amountProblem(typed: string, booking: Pick<BalanceBooking, 'balance' | 'minPayment'>): string | undefined {
  const amount = pence(typed);
  if (amount === null) return 'Enter an amount in pounds, like 250.00';
  if (amount < booking.minPayment) return `Please pay at least ${formatMoney(booking.minPayment)}.`;
  if (amount > booking.balance) return `The balance is ${formatMoney(booking.balance)}: please pay no more than that.`;
  return undefined;
}


function ExpiredLink() {
  return (
    <div className="container order-page">
      <h1>This payment link has expired</h1>
      <p>
        Payment links work for 30 days. <Link to="/sign-in/">Sign in to your account</Link> to pay your balance, or reply to
        the email we sent you and we will send a new link.
      </p>
    </div>
  );
}

/** Step one: how much to pay now; its answer is the intent that pays it. */
function AmountForm({ booking, token, suggested, onPrepared }: {
  booking: BalanceBooking;
  token: string;
  /** The amount the link asks for, when within what may be paid; else the whole balance. */
  suggested: number | null;
  onPrepared: (p: PreparedPayment) => void;
}) {
  const first = suggested !== null && suggested >= booking.minPayment && suggested <= booking.balance ? suggested : booking.balance;
  const form = useForm<'amount'>({
    fields: ['amount'],
    initial: { amount: (first / 100).toFixed(2) },
    validate: (values) => {
      const problem = amountProblem(values.amount, booking);
      return problem ? { amount: problem } : {};
    },
    send: async (values) => {
      const amount = pence(values.amount) ?? 0;
      const prepared = await postJson<Omit<PreparedPayment, 'amount'>>('/api/balance/intent', { token, amount });
      onPrepared({ ...prepared, amount });
    },
  });
  return (
    <form noValidate onSubmit={form.submit} aria-label="Amount to pay">
      <Field
        {...form.field('amount')}
        label="Amount to pay now (£)"
        hint={`Pay the whole balance, or part of it (at least ${formatMoney(booking.minPayment)}).`}
        inputMode="decimal"
        required
      />
      <p role="alert" className="form-error">{form.message}</p>
      <button type="submit" className="button" aria-disabled={form.status !== 'editing'}>
        Continue to payment
      </button>
    </form>
  );
}

/** Step two: the gateway's payment element for the prepared amount. */
function PaymentForm({ page, prepared, token, onBack }: { page: BalancePageData; prepared: PreparedPayment; token: string; onBack: () => void }) {
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [stripeCheckout, setStripeCheckout] = useState<StripeCheckout | null>(null);
  const sandbox = page.gateway === 'sandbox';
  const back = returnUrl(`/pay-balance/?token=${token}`);
  const form = useForm<CardField>({
    fields: CARD_FIELDS,
    initial: EMPTY_CARD,
    validate: (values) => (sandbox && method === 'card' ? validateCard(values) : {}),
    send: async (card) => {
      if (stripeCheckout) {
        const incomplete = await stripeCheckout.validate();
        if (incomplete) throw new PaymentRefused(incomplete);
      }
      const next = stripeCheckout ? await stripeCheckout.confirm(prepared, back) : await confirmSandboxPayment(prepared, method, card, back);
      window.location.assign(next);
    },
    failure: (error) => `Payment failed: ${error instanceof ApiError || error instanceof PaymentRefused ? error.message : 'please try again.'}`,
  });
  const paying = form.status !== 'editing';
  return (
    <form noValidate onSubmit={form.submit} aria-label="Pay your balance">
      <p>
        {`Paying ${formatMoney(prepared.amount)} now. `}
        <button type="button" className="link-button" onClick={onBack} disabled={paying}>
          Change amount
        </button>
      </p>
      {sandbox ? (
        <SandboxPaymentElement
          idPrefix={form.id}
          methods={prepared.payment_methods}
          method={method}
          onMethodChange={setMethod}
          field={form.field}
          total={prepared.amount}
        />
      ) : (
        <StripePaymentElement
          publishableKey={page.publishableKey}
          clientSecret={prepared.client_secret}
          onMethodChange={setMethod}
          onReady={setStripeCheckout}
        />
      )}
      <p role="alert" className="form-error">{form.message}</p>
      <button type="submit" className="button button-wide" aria-disabled={paying} disabled={!sandbox && !stripeCheckout}>
        {paying ? (
          <>
            <span className="spinner" aria-hidden="true" />
            Processing
          </>
        ) : (
          `Pay ${formatMoney(prepared.amount)}`
        )}
      </button>
    </form>
  );
}

/** `/pay-balance/?token=…`: the booking, what is left to pay and by when, and the payment. */
export function BalancePage({ page, path, today }: { page: BalancePageData; path: string; today: string }) {
  const { page: current, gaveUp } = usePendingPage(page, isWaiting, readBalance);
  const [prepared, setPrepared] = useState<PreparedPayment | null>(null);
  const token = TOKEN.exec(path)?.[1];
  const asked = SUGGESTED.exec(path)?.[1];
  const suggested = asked === undefined ? null : Number(asked);
  const booking = current.booking;
  if (!booking || !token) return <ExpiredLink />;
  const returned = booking.returnedPaymentRecorded;
  return (
    <div className="container order-page">
      {returned === null ? (
        <h1>Pay your balance</h1>
      ) : (
        <PaymentStatus
          state={returned ? 'confirmed' : 'waiting'}
          gaveUp={gaveUp}
          heading={returned ? 'Payment received' : 'Confirming your payment'}
          confirmed="Thank you. We have emailed your receipt."
          failed="Your payment did not go through."
          mailed="receipt"
          reference={['Booking reference', booking.reference]}
        />
      )}
      <BookingTable caption={`Your booking ${booking.reference}`} booking={booking} today={today} />
      {booking.balance === 0 ? (
        <p>Your training is paid in full. Thank you.</p>
      ) : (
        <section aria-labelledby="balance-pay-title">
          <h2 id="balance-pay-title">{`${formatMoney(booking.balance)} ${balanceDueWords(booking.balanceDueOn, today)}`}</h2>
          {prepared ? (
            <PaymentForm page={current} prepared={prepared} token={token} onBack={() => setPrepared(null)} />
          ) : (
            <AmountForm booking={booking} token={token} suggested={suggested} onPrepared={setPrepared} />
          )}
        </section>
      )}
      {booking.balance > 0 && !prepared && <BalancePlan page={current} booking={booking} token={token} today={today} />}
    </div>
  );
}

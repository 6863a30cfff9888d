import { useState } from 'react';
import { PaymentPlanSummary } from '../../components/payment-plan-summary';
import { useForm } from '../../components/ui/use-form';
import type { BalanceBooking } from '../../generated/BalanceBooking';
import type { BalancePage as BalancePageData } from '../../generated/BalancePage';
import type { PlanChoice } from '../../generated/PlanChoice';
import type { StudentPlan } from '../../generated/StudentPlan';
import { ApiError, postJson } from '../../lib/api';
import { CARD_FIELDS, validateCard, type CardField } from './checkout-rules';
import { InstalmentChoice } from './instalment-choice';
import { planChoices, schedule } from './instalments';
import { confirmSandboxSetup, PaymentRefused, returnUrl } from './place-order';
import { PLAN_CONSENT, PLAN_CONSENT_MISSING, PlanConsent, TICKED } from './plan-consent';
import { EMPTY_CARD, SandboxPaymentElement } from './sandbox-payment-element';
import { StripePaymentElement, type StripeCheckout } from './stripe-payment-element';

// A plan's card from the balance page (decision 036): monthly instalments
// for a booking paid without a plan, or another card for a running one,
// saved by a setup intent, which takes no money.

interface CardSetup {
  id: string;
  clientSecret: string;
}

/** Step two: the card, saved at the gateway and then told to the site. */
function CardForm({ page, setup, token, onSaved }: { page: BalancePageData; setup: CardSetup; token: string; onSaved: (plan: StudentPlan) => void }) {
  const [stripeCheckout, setStripeCheckout] = useState<StripeCheckout | null>(null);
  const sandbox = page.gateway === 'sandbox';
  const form = useForm<CardField>({
    fields: CARD_FIELDS,
    initial: EMPTY_CARD,
    validate: (values) => (sandbox ? validateCard(values) : {}),
    send: async (card) => {
      const intent = { id: setup.id, client_secret: setup.clientSecret };
      const back = returnUrl(`/pay-balance/?token=${token}`);
      const saved = stripeCheckout ? await stripeCheckout.confirm(intent, back) : await confirmSandboxSetup(intent, card);
      onSaved(await postJson<StudentPlan>('/api/balance/card/confirm', { token, setupIntent: saved }));
    },
    failure: (error) => `The card was not saved: ${error instanceof ApiError || error instanceof PaymentRefused ? error.message : 'please try again.'}`,
  });
  const saving = form.status !== 'editing';
  return (
    <form noValidate onSubmit={form.submit} aria-label="Save your card">
      {sandbox ? (
        <SandboxPaymentElement idPrefix={form.id} methods={['card']} method="card" onMethodChange={() => {}} field={form.field} total={0} />
      ) : (
        <StripePaymentElement publishableKey={page.publishableKey} clientSecret={setup.clientSecret} onMethodChange={() => {}} onReady={setStripeCheckout} setup />
      )}
      <p role="alert" className="form-error">{form.message}</p>
      <button type="submit" className="button" aria-disabled={saving} disabled={!sandbox && !stripeCheckout}>
        {saving ? 'Saving' : 'Save card'}
      </button>
    </form>
  );
}

/** Step one of a new plan: how many instalments, and the consent to the card being kept for them. */
function PlanOffer({ booking, choices, today, onPrepared }: {
  booking: BalanceBooking;
  choices: number[];
  today: string;
  onPrepared: (request: { plan: PlanChoice }) => Promise<void>;
}) {
  const [count, setCount] = useState<number | null>(null);
  const parts = count === null ? [] : schedule(booking.balance, count, today);
  const form = useForm<typeof PLAN_CONSENT>({
    fields: [PLAN_CONSENT],
    initial: { [PLAN_CONSENT]: '' },
    validate: (values) => (values[PLAN_CONSENT] === TICKED ? {} : { [PLAN_CONSENT]: PLAN_CONSENT_MISSING }),
    send: () => onPrepared({ plan: { parts, cardConsent: true } }),
    failure: (error) => (error instanceof ApiError ? error.message : 'Please try again.'),
  });
  return (
    <form noValidate onSubmit={form.submit} aria-label="Spread the rest in monthly instalments">
      <InstalmentChoice
        balance={booking.balance}
        deposit={null}
        dueOn={booking.balanceDueOn ?? today}
        choices={choices}
        count={count}
        parts={parts}
        onChange={setCount}
      />
      {count !== null && (
        <>
          <PlanConsent binding={form.field(PLAN_CONSENT)} count={count} />
          <p role="alert" className="form-error">{form.message}</p>
          <button type="submit" className="button" aria-disabled={form.status !== 'editing'}>
            Continue to your card
          </button>
        </>
      )}
    </form>
  );
}

/**
 * The plan part of the balance page: a running plan with the card to
 * change, or monthly instalments to choose where the dates allow a plan.
 */
export function BalancePlan({ page, booking, token, today }: { page: BalancePageData; booking: BalanceBooking; token: string; today: string }) {
  const [plan, setPlan] = useState<StudentPlan | null>(booking.plan);
  const [setup, setSetup] = useState<CardSetup | null>(null);
  const [problem, setProblem] = useState('');
  const choices = plan || !booking.balanceDueOn
    ? []
    : planChoices({ ...booking, subtotal: booking.total, deposit: 0 }, today, booking.balanceDueOn, booking.maxInstalments);

  async function prepare(request: { plan?: PlanChoice }) {
    setProblem('');
    try {
      setSetup(await postJson<CardSetup>('/api/balance/card', { token, ...request }));
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Please try again.');
    }
  }

  if (!plan && choices.length === 0) return null;
  return (
    <section className="balance-plan" aria-labelledby="balance-plan-title">
      <h2 id="balance-plan-title">{plan ? 'Your payment plan' : 'Or spread the rest in monthly instalments'}</h2>
      {plan && <PaymentPlanSummary plan={plan} today={today} />}
      {setup ? (
        <CardForm page={page} setup={setup} token={token} onSaved={(saved) => { setPlan(saved); setSetup(null); }} />
      ) : plan ? (
        plan.status !== 'completed' && (
          <button type="button" className="button button-secondary" onClick={() => void prepare({})}>
            Use another card
          </button>
        )
      ) : (
        <PlanOffer booking={booking} choices={choices} today={today} onPrepared={prepare} />
      )}
      {problem && <p role="alert" className="form-error">{problem}</p>}
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from '../../lib/router';
import { FormMessage } from '../../components/ui/form-message';
import { PageSpinner } from '../../components/ui/page-spinner';
import { useForm } from '../../components/ui/use-form';
import type { CheckoutPage as CheckoutPageData } from '../../generated/CheckoutPage';
import type { Contact } from '../../generated/Contact';
import type { SandboxCard } from '../../generated/SandboxCard';
import { ApiError, failureMessage, fieldErrorsOf } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import type { PaymentMethod } from '../../lib/payment-methods';
import { reportError } from '../../lib/report-error';
import { track } from '../../lib/tracking';
import { useAuth } from '../../lib/auth';
import { useBasket } from '../../lib/basket';
import { AGREED_FIELDS, agreedOf, CheckoutAgreement, EMPTY_AGREED, requiringCourses, validateAgreed, type AgreedField } from './checkout-agreement';
import { checkoutRows, firstTrainingDay, linePrice } from './checkout-lines';
import {
  CARD_FIELDS, CONTACT_FIELDS, EMPTY_CONTACT, prefillContact, validateCard, validateContact, type CardField,
  type ContactField,
} from './checkout-rules';
import { CheckoutTotals } from './checkout-totals';
import { ContactFields } from './contact-fields';
import { DiscountCode, type AppliedDiscount } from './discount-code';
import { OnlineBasketNotice } from './online-basket-notice';
import { InstalmentChoice } from './instalment-choice';
import { planChoices, schedule } from './instalments';
import { PaymentPlan } from './payment-plan';
import { PLAN_CONSENT, PLAN_CONSENT_MISSING, PlanConsent, TICKED } from './plan-consent';
import { confirmSandboxPayment, placeOrder, PaymentRefused, type ConfirmPayment } from './place-order';
import {
  amountDue, balanceDueAtOnce, balanceDueOn, CLEARPAY_LIMIT, modeFor, offersPaymentPlan, paymentMethods, quote,
} from './pricing';
import { EMPTY_CARD, SandboxPaymentElement } from './sandbox-payment-element';
import { SelectedCourseList } from './selected-course-list';
import { StripePaymentElement, type StripeCheckout } from './stripe-payment-element';
import { useCheckoutBasket } from './use-checkout-basket';
import { usePaymentIntent } from './use-payment-intent';

// The gateway sends the visitor back here after a refused payment. QuickJS
// has no URLSearchParams, and this page renders on the server too.
const STATUS_FAILED = /[?&]status=failed(?:&|$)/;
const RETURNED_FAILED = 'Payment failed. Please try an alternative payment method';
const NOT_PREPARED = 'We could not prepare your checkout. Please check your connection and try again.';
const UNREACHABLE = 'we could not reach the payment service. Please check your connection and try again.';
const CLEARPAY_OVER_LIMIT = `Clearpay is not available for totals over ${formatMoney(CLEARPAY_LIMIT)}. Please choose another payment method.`;

/** The payment account an order is paid into, for the order's metadata. */
function paymentAccountMode(page: CheckoutPageData): string {
  if (page.gateway === 'sandbox') return 'sandbox';
  return page.publishableKey?.startsWith('pk_live_') ? 'live' : 'test';
}

function EmptyCheckout() {
  return (
    <div className="container checkout-empty">
      <h1>Lets get you enrolled</h1>
      <p>It appears you have not selected any courses.</p>
      <OnlineBasketNotice />
      <p>
        <Link to="/courses/">Please select a course to enroll onto.</Link>
      </p>
    </div>
  );
}

/** The Stripe Payment Element found its own fields incomplete: its message is the form's, nothing was sent. */
class PaymentDetailsIncomplete extends Error {}

/**
 * What the form says when any step of paying failed, 'Payment failed'
 * with the server's or the provider's words (a session that filled up, a
 * price or a code that changed, a card declined).
 */
function paymentFailure(error: unknown): string {
  if (error instanceof PaymentDetailsIncomplete) return error.message;
  if (error instanceof ApiError || error instanceof PaymentRefused) return `Payment failed: ${error.message}`;
  return `Payment failed: ${UNREACHABLE}`;
}

function EnrolCheckout({ page, returnedFailed, today }: { page: CheckoutPageData; returnedFailed: boolean; today: string }) {
  const basket = useBasket();
  const catalogue = useCheckoutBasket();
  const payment = usePaymentIntent();
  const [discount, setDiscount] = useState<AppliedDiscount | null>(null);
  const [chosenMethod, setChosenMethod] = useState<PaymentMethod>('card');
  const [chosenInstalments, setChosenInstalments] = useState<number | null>(null);
  // Stripe's Payment Element, once it is mounted and can take a payment.
  const [stripeCheckout, setStripeCheckout] = useState<StripeCheckout | null>(null);
  const { user } = useAuth();

  const rows = checkoutRows(basket.selectedCourses, catalogue.catalogue);
  const figures = quote(rows.map((row) => linePrice(row, discount?.courseIds ?? null)), discount);
  const methods = paymentMethods('full', figures.total);
  // Clearpay stops being offered when the total passes its limit.
  const method = methods.includes(chosenMethod) ? chosenMethod : 'card';
  const firstDay = firstTrainingDay(rows);
  const mode = modeFor(method);
  const dueOn = firstDay && balanceDueOn(firstDay, today);
  // Monthly instalments where the dates allow a plan, paying the booking fee now (decision 036).
  const planCounts = mode === 'fee' && dueOn ? planChoices(figures, today, dueOn, catalogue.maxInstalments) : [];
  const instalments = chosenInstalments !== null && planCounts.includes(chosenInstalments) ? chosenInstalments : null;
  const parts = instalments === null ? [] : schedule(figures.balance, instalments, today);
  const sandbox = page.gateway === 'sandbox';
  // The sandbox stops offering Clearpay; Stripe's element, made for the
  // booking fee, still shows it, so the visitor is asked to choose again.
  const clearpayOverLimit = !sandbox && chosenMethod === 'afterpay_clearpay' && method !== chosenMethod;
  const canPay = sandbox || (stripeCheckout !== null && !clearpayOverLimit);

  async function pay(values: Contact & SandboxCard & Record<AgreedField | typeof PLAN_CONSENT, string>) {
    if (payment.status !== 'ready') throw new Error(NOT_PREPARED);
    const contact: Contact = { name: values.name, surname: values.surname, email: values.email, phone: values.phone };
    const card: SandboxCard = { number: values.number, expiry: values.expiry, cvc: values.cvc };
    if (stripeCheckout) {
      // Stripe checks its fields before there is an order to pay for.
      const incomplete = await stripeCheckout.validate();
      if (incomplete) throw new PaymentDetailsIncomplete(incomplete);
    }
    const draft = {
      courses: basket.selectedCourses, figures, method, contact, agreed: agreedOf(values, requiring), discountCode: discount?.code ?? null,
      paymentAccountMode: paymentAccountMode(page), customer: payment.customer,
      plan: instalments === null ? null : { parts, cardConsent: values[PLAN_CONSENT] === TICKED },
    };
    const confirm: ConfirmPayment = stripeCheckout
      ? stripeCheckout.confirm
      : (intent, returnTo) => confirmSandboxPayment(intent, method, card, returnTo);
    try {
      window.location.assign(await placeOrder(draft, payment.intent, confirm));
    } catch (error) {
      track('Booking Error', { message: error instanceof Error ? error.message : String(error) });
      reportError(error, { action: 'enrol checkout', courses: basket.selectedCourses.map((course) => course.courseId) });
      // A refused order without a contact field to correct: the catalogue changed under the basket.
      const refused = error instanceof ApiError && (error.status === 409 || error.status === 422);
      if (refused && Object.keys(fieldErrorsOf(error, CONTACT_FIELDS)).length === 0) catalogue.refresh();
      throw error;
    }
  }

  const requiring = requiringCourses(rows);
  const form = useForm<ContactField | CardField | AgreedField | typeof PLAN_CONSENT>({
    fields: [...CONTACT_FIELDS, ...CARD_FIELDS, ...AGREED_FIELDS, PLAN_CONSENT],
    initial: { ...EMPTY_CONTACT, ...EMPTY_CARD, ...EMPTY_AGREED, [PLAN_CONSENT]: '' },
    validate: (values) => ({
      ...validateContact(values, method === 'card'),
      ...(sandbox && method === 'card' ? validateCard(values) : {}),
      ...validateAgreed(values, requiring),
      ...(instalments !== null && values[PLAN_CONSENT] !== TICKED ? { [PLAN_CONSENT]: PLAN_CONSENT_MISSING } : {}),
    }),
    send: pay,
    failure: paymentFailure,
    message: returnedFailed ? RETURNED_FAILED : '',
  });
  const paying = form.status !== 'editing';

  // A signed-in buyer's details fill the fields still empty, once: what they
  // change afterwards is theirs.
  const { update } = form;
  const prefilled = useRef(false);
  useEffect(() => {
    if (!user || prefilled.current) return;
    prefilled.current = true;
    update((current) => ({ ...current, ...prefillContact(current, user) }));
  }, [user, update]);

  function changeMethod(chosen: PaymentMethod) {
    // Stripe's element reports every change to its fields, not only the method's.
    if (chosen === chosenMethod) return;
    setChosenMethod(chosen);
    form.clearErrors();
  }

  if (catalogue.status === 'failed' || payment.status === 'failed') {
    return (
      <div className="container checkout">
        <h1>Checkout</h1>
        <p role="alert" className="form-error">
          {payment.status === 'failed' ? failureMessage(payment.error, NOT_PREPARED) : NOT_PREPARED}
        </p>
        <button
          type="button"
          className="button"
          onClick={() => {
            if (catalogue.status === 'failed') catalogue.refresh();
            if (payment.status === 'failed') payment.retry();
          }}
        >
          Try again
        </button>
      </div>
    );
  }

  const loading = catalogue.status === 'loading' || payment.status === 'loading';
  return (
    <>
      {loading && <PageSpinner label="Preparing your checkout" />}
      <div className="container checkout" inert={loading}>
        <h1>Checkout</h1>
        <OnlineBasketNotice />
        <div className="checkout-columns">
          <section className="checkout-summary" aria-labelledby={`${form.id}-courses`}>
            <h2 id={`${form.id}-courses`}>Your selected courses</h2>
            {catalogue.notices.length > 0 && (
              <ul className="checkout-notices" role="status">
                {catalogue.notices.map((notice) => <li key={notice}>{notice}</li>)}
              </ul>
            )}
            <SelectedCourseList
              rows={rows}
              onChange={(course, changed) =>
                basket.replaceCourses(basket.selectedCourses.map((c) => (c === course ? changed : c)))
              }
              onRemove={(course) => basket.removeCourse(course.selectedEvent?.id ?? null)}
            />
            {!discount && <DiscountCode courseIds={rows.map((row) => row.course.courseId)} onApply={setDiscount} />}
            <CheckoutTotals
              figures={figures}
              mode={mode}
              discount={discount}
              onRemoveDiscount={() => setDiscount(null)}
              balanceDueOn={dueOn}
              dueAtOnce={balanceDueAtOnce(firstDay, today)}
              today={today}
            />
            {offersPaymentPlan(figures) && (
              <PaymentPlan
                courses={rows.map(({ course }) => course.title)}
                contact={form.values}
                instalments={
                  dueOn && planCounts.length > 0 && (
                    <InstalmentChoice
                      balance={figures.balance}
                      deposit={figures.deposit}
                      dueOn={dueOn}
                      choices={planCounts}
                      count={instalments}
                      parts={parts}
                      onChange={setChosenInstalments}
                    />
                  )
                }
              />
            )}
          </section>
          <section className="checkout-payment" aria-labelledby={`${form.id}-details`}>
            <h2 id={`${form.id}-details`}>Your details</h2>
            <form noValidate onSubmit={canPay ? form.submit : (event) => event.preventDefault()} aria-label="Enrol and pay">
              <ContactFields field={form.field} required={method === 'card'} />
              <FormMessage form={form} className="checkout-error" />
              <h2>Payment</h2>
              {sandbox ? (
                <SandboxPaymentElement
                  idPrefix={form.id}
                  methods={methods}
                  method={method}
                  onMethodChange={changeMethod}
                  field={form.field}
                  total={figures.total}
                />
              ) : (
                <StripePaymentElement
                  publishableKey={page.publishableKey}
                  clientSecret={payment.status === 'ready' ? payment.intent.client_secret : null}
                  onMethodChange={changeMethod}
                  onReady={setStripeCheckout}
                />
              )}
              {clearpayOverLimit && <p role="alert" className="form-error payment-element">{CLEARPAY_OVER_LIMIT}</p>}
              <CheckoutAgreement field={form.field} requiring={requiring} />
              {instalments !== null && <PlanConsent binding={form.field(PLAN_CONSENT)} count={instalments} />}
              <button type="submit" className="button button-wide" aria-disabled={paying} disabled={!canPay}>
                {paying ? (
                  <>
                    <span className="spinner" aria-hidden="true" />
                    Processing
                  </>
                ) : mode === 'fee' ? (
                  `Pay booking fee ${formatMoney(amountDue(figures, mode))}`
                ) : (
                  `Pay ${formatMoney(amountDue(figures, mode))}`
                )}
              </button>
            </form>
          </section>
        </div>
      </div>
    </>
  );
}

/**
 * The checkout page (docs/product.md#checkout): the selected courses are
 * enrolled and paid for here.
 * `today`: the London day the page was made for, which sets when a balance falls due.
 */
export function CheckoutPage({ page, today }: { page: CheckoutPageData; today: string }) {
  const { restored, selectedCourses } = useBasket();
  const returnedFailed = STATUS_FAILED.test(useLocation().search);
  if (!restored) return <PageSpinner label="Loading your courses" />;
  if (selectedCourses.length === 0) return <EmptyCheckout />;
  return <EnrolCheckout page={page} returnedFailed={returnedFailed} today={today} />;
}

import { useEffect, useId, useState, type ReactNode } from 'react';
import { FormMessage } from '../../components/ui/form-message';
import { useForm } from '../../components/ui/use-form';
import type { Contact } from '../../generated/Contact';
import type { FinanceRequest } from '../../generated/FinanceRequest';
import type { FinanceResponse } from '../../generated/FinanceResponse';
import { failureMessage, postJson } from '../../lib/api';
import { trackConversion } from '../../lib/conversions';
import { reportError } from '../../lib/report-error';
import { CONTACT_FIELDS, trimContact, validateContact } from './checkout-rules';
import { ContactFields } from './contact-fields';

const CALLBACK_PATH = '/api/callback/';
const FAILED = 'Error processing request, Please try again';

/** The request form, opened with what the visitor has typed at checkout; its first field takes the focus. */
function PaymentPlanForm({ courses, contact, onSent }: { courses: string[]; contact: Contact; onSent: () => void }) {
  const form = useForm({
    fields: CONTACT_FIELDS,
    initial: contact,
    validate: (values) => validateContact(values, true),
    send: async (values) => {
      const details = trimContact(values);
      const request: FinanceRequest = {
        first_name: details.name, last_name: details.surname, email: details.email, phone_number: details.phone,
        courses, type: 'finance',
      };
      try {
        const answer = await postJson<FinanceResponse | null>(CALLBACK_PATH, request);
        if (!answer?.success) throw new Error('The payment-plan request was not accepted');
        trackConversion('callback');
        onSent();
      } catch (error) {
        reportError(error, { action: 'request a payment plan' });
        throw error;
      }
    },
    failure: (error) => failureMessage(error, FAILED),
  });
  const first = form.field(CONTACT_FIELDS[0]!).id;
  useEffect(() => document.getElementById(first)?.focus(), [first]);

  return (
    <form noValidate onSubmit={form.submit} aria-label="Payment plan request">
      <ContactFields field={form.field} required />
      <FormMessage form={form} />
      <button type="submit" className="button" aria-disabled={form.status === 'sending'}>
        {form.status === 'sending' ? 'Sending' : 'Request a payment plan'}
      </button>
    </form>
  );
}

/**
 * The payment-plan panel, from a total of £1,000: the choice of monthly
 * instalments where the booking's dates allow a plan (`instalments`), and
 * the request for another arrangement: a prompt, then a form (prefilled
 * with what the visitor has typed at checkout), then 'Details Received'.
 */
export function PaymentPlan({ courses, contact, instalments }: { courses: string[]; contact: Contact; instalments?: ReactNode }) {
  const id = useId();
  const [step, setStep] = useState<'prompt' | 'form' | 'received'>('prompt');
  return (
    <section className="payment-plan" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Spread the cost with a payment plan</h2>
      {instalments}
      <p>
        {instalments
          ? 'We offer payment plans without interest and without credit checks. If monthly instalments do not suit you, leave your details and our team will reply within 2 hours during business hours.'
          : 'We offer payment plans without interest and without credit checks. Leave your details and our team will reply within 2 hours during business hours.'}
      </p>
      {step === 'prompt' && (
        <button type="button" className="button button-secondary" onClick={() => setStep('form')}>
          Ask about a payment plan
        </button>
      )}
      {step === 'form' && <PaymentPlanForm courses={courses} contact={contact} onSent={() => setStep('received')} />}
      <div role="status">
        {step === 'received' && (
          <>
            <p className="plan-received">Details Received</p>
            <p>Thank you. Our team will be in touch within 2 hours during business hours.</p>
          </>
        )}
      </div>
    </section>
  );
}

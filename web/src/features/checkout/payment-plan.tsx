import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Contact } from '../../generated/Contact';
import type { FinanceRequest } from '../../generated/FinanceRequest';
import type { FinanceResponse } from '../../generated/FinanceResponse';
import { failureMessage, postJson } from '../../lib/api';
import { reportError } from '../../lib/report-error';
import { CONTACT_FIELDS, trimContact, validateContact, type ContactErrors } from './checkout-rules';
import { fieldId, focusFirstError } from '../../components/ui/field';
import { ContactFields } from './contact-fields';

const CALLBACK_PATH = '/api/callback/';

type Step = 'prompt' | 'form' | 'sending' | 'failed' | 'received';

const FAILED = 'Error processing request, Please try again';

/**
 * §2 Payment-plan panel, from a total of £1,000: a prompt, then a form
 * (prefilled with what the visitor has typed at checkout), then 'Details Received'.
 */
export function PaymentPlan({ courses, contact }: { courses: string[]; contact: Contact }) {
  const id = useId();
  const [step, setStep] = useState<Step>('prompt');
  const [values, setValues] = useState<Contact>(contact);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [failure, setFailure] = useState(FAILED);

  // Opening the form (the only way to the 'form' step) moves focus to its first field.
  useEffect(() => {
    if (step === 'form') document.getElementById(fieldId(id, CONTACT_FIELDS[0]!))?.focus();
  }, [step, id]);

  async function send(event: FormEvent) {
    event.preventDefault();
    if (step === 'sending') return;
    const found = validateContact(values, true);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(id, CONTACT_FIELDS, found);
      return;
    }
    setStep('sending');
    const details = trimContact(values);
    const request: FinanceRequest = {
      first_name: details.name, last_name: details.surname, email: details.email, phone_number: details.phone,
      courses, type: 'finance',
    };
    try {
      const answer = await postJson<FinanceResponse | null>(CALLBACK_PATH, request);
      if (!answer?.success) throw new Error('The payment-plan request was not accepted');
      setStep('received');
    } catch (error) {
      reportError(error, { action: 'request a payment plan' });
      setFailure(failureMessage(error, FAILED));
      setStep('failed');
    }
  }

  return (
    <section className="payment-plan" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Spread the cost with a payment plan</h2>
      <p>
        We offer payment plans without interest and without credit checks. Leave your details and our team will reply
        within 2 hours during business hours.
      </p>
      {step === 'prompt' && (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            setValues(contact);
            setStep('form');
          }}
        >
          Ask about a payment plan
        </button>
      )}
      {(step === 'form' || step === 'sending' || step === 'failed') && (
        <form noValidate onSubmit={send} aria-label="Payment plan request">
          <ContactFields
            idPrefix={id}
            values={values}
            errors={errors}
            required
            onChange={(field, value) => {
              setValues((current) => ({ ...current, [field]: value }));
              if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
            }}
          />
          {step === 'failed' && <p className="form-error" role="alert">{failure}</p>}
          <button type="submit" className="button" aria-disabled={step === 'sending'}>
            {step === 'sending' ? 'Sending' : 'Request a payment plan'}
          </button>
        </form>
      )}
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

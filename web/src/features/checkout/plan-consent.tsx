import type { FieldBinding } from '../../components/ui/use-form';

// The buyer's consent to the card being saved for an instalment plan
// (decision 036): a box of the checkout's form, ticked before paying.

export const PLAN_CONSENT = 'plan.cardConsent';
export const TICKED = 'yes';
export const PLAN_CONSENT_MISSING =
  'Please agree to your card being saved for the instalments, or choose to pay the balance in one payment.';

export function PlanConsent({ binding, count }: { binding: FieldBinding; count: number }) {
  return (
    <div className={binding.error ? 'check-field has-error' : 'check-field'}>
      {binding.error && <p id={`${binding.id}-error`} className="field-error">{binding.error}</p>}
      <input
        type="checkbox"
        id={binding.id}
        checked={binding.value === TICKED}
        aria-invalid={binding.error ? true : undefined}
        aria-describedby={binding.error ? `${binding.id}-error` : undefined}
        onChange={(event) => binding.onChange(event.target.checked ? TICKED : '')}
      />
      <label htmlFor={binding.id}>
        {`I agree that the card I pay the booking fee with is saved, and that the ${count} instalments shown are taken from it on their days.`}
      </label>
    </div>
  );
}

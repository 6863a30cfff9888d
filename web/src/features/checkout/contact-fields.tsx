import type { Contact } from '../../generated/Contact';
import { CONTACT_FIELDS, type ContactErrors, type ContactField } from './checkout-rules';

const INPUTS: Record<ContactField, { label: string; type: 'text' | 'email' | 'tel'; autoComplete: string }> = {
  name: { label: 'First name', type: 'text', autoComplete: 'given-name' },
  surname: { label: 'Last name', type: 'text', autoComplete: 'family-name' },
  email: { label: 'Email', type: 'email', autoComplete: 'email' },
  phone: { label: 'Phone number', type: 'tel', autoComplete: 'tel' },
};

export const fieldId = (prefix: string, field: string) => `${prefix}-${field}`;

/** Focuses the first field, in `order`, that has an error. */
export function focusFirstError(prefix: string, order: readonly string[], errors: Partial<Record<string, string>>) {
  const first = order.find((field) => errors[field]);
  if (first) document.getElementById(fieldId(prefix, first))?.focus();
}

interface FieldProps {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  required: boolean;
  type?: 'text' | 'email' | 'tel';
  autoComplete: string;
  inputMode?: 'numeric';
  onChange: (value: string) => void;
}

/** A labelled input with its message beside it. */
export function Field({ id, label, value, error, required, type = 'text', autoComplete, inputMode, onChange }: FieldProps) {
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
      <input
        id={id}
        type={type}
        value={value}
        required={required}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** First name, last name, email and phone number: the checkout's contact form and the payment-plan form. */
export function ContactFields({ idPrefix, values, errors, required, onChange }: {
  idPrefix: string;
  values: Contact;
  errors: ContactErrors;
  required: boolean;
  onChange: (field: ContactField, value: string) => void;
}) {
  return (
    <>
      {CONTACT_FIELDS.map((field) => (
        <Field
          key={field}
          id={fieldId(idPrefix, field)}
          {...INPUTS[field]}
          value={values[field]}
          error={errors[field]}
          required={required}
          onChange={(value) => onChange(field, value)}
        />
      ))}
    </>
  );
}

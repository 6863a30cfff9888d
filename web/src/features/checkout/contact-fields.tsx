import { Field, fieldId } from '../../components/ui/field';
import type { Contact } from '../../generated/Contact';
import { CONTACT_FIELDS, type ContactErrors, type ContactField } from './checkout-rules';

const INPUTS: Record<ContactField, { label: string; type: 'text' | 'email' | 'tel'; autoComplete: string }> = {
  name: { label: 'First name', type: 'text', autoComplete: 'given-name' },
  surname: { label: 'Last name', type: 'text', autoComplete: 'family-name' },
  email: { label: 'Email', type: 'email', autoComplete: 'email' },
  phone: { label: 'Phone number', type: 'tel', autoComplete: 'tel' },
};

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

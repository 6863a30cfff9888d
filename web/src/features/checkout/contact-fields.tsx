import { Field } from '../../components/ui/field';
import type { FieldBinding } from '../../components/ui/use-form';
import { CONTACT_FIELDS, type ContactField } from './checkout-rules';

const INPUTS: Record<ContactField, { label: string; type: 'text' | 'email' | 'tel'; autoComplete: string }> = {
  name: { label: 'First name', type: 'text', autoComplete: 'given-name' },
  surname: { label: 'Last name', type: 'text', autoComplete: 'family-name' },
  email: { label: 'Email', type: 'email', autoComplete: 'email' },
  phone: { label: 'Phone number', type: 'tel', autoComplete: 'tel' },
};

/** First name, last name, email and phone number: the checkout's contact form and the payment-plan form. */
export function ContactFields({ field, required }: { field: (name: ContactField) => FieldBinding; required: boolean }) {
  return (
    <>
      {CONTACT_FIELDS.map((name) => (
        <Field key={name} {...field(name)} {...INPUTS[name]} required={required} />
      ))}
    </>
  );
}

import type { AuthUser } from '../../generated/AuthUser';
import type { Contact } from '../../generated/Contact';
import type { SandboxCard } from '../../generated/SandboxCard';
import { emailProblem, phoneProblem } from '../../lib/contact-rules';

// docs/product.md#contact-details: the checkout's contact details are required for card payments and
// optional for buy-now-pay-later methods (whose provider asks for them), but
// what is given must be valid; the payment-plan form requires all four. The
// same rules as enrol_domain::checkout on the server, which checks again.

export type ContactField = keyof Contact;
export type ContactErrors = Partial<Record<ContactField, string>>;
export type CardField = keyof SandboxCard;
export type CardErrors = Partial<Record<CardField, string>>;

export const CONTACT_FIELDS: ContactField[] = ['name', 'surname', 'email', 'phone'];
export const CARD_FIELDS: CardField[] = ['number', 'expiry', 'cvc'];

const REQUIRED: Record<ContactField, string> = {
  name: 'Name is required',
  surname: 'Last name is required',
  email: 'Email is required',
  phone: 'Phone number is required',
};

export const EMPTY_CONTACT: Contact = { name: '', surname: '', email: '', phone: '' };

export function validateContact(contact: Contact, required: boolean): ContactErrors {
  const errors: ContactErrors = {};
  for (const field of CONTACT_FIELDS) {
    if (required && !contact[field].trim()) errors[field] = REQUIRED[field];
  }
  const email = emailProblem(contact.email);
  if (email) errors.email = email;
  const phone = phoneProblem(contact.phone);
  if (phone) errors.phone = phone;
  return errors;
}

export function validateCard(card: SandboxCard): CardErrors {
  const errors: CardErrors = {};
  if (!card.number.trim()) errors.number = 'Card number is required';
  if (!card.expiry.trim()) errors.expiry = 'Expiry date is required';
  if (!card.cvc.trim()) errors.cvc = 'Security code is required';
  return errors;
}

export function trimContact(contact: Contact): Contact {
  return {
    name: contact.name.trim(), surname: contact.surname.trim(), email: contact.email.trim(), phone: contact.phone.trim(),
  };
}

/** The signed-in user's details in the fields the buyer has left empty. */
export function prefillContact(contact: Contact, user: AuthUser): Contact {
  const fill = (typed: string, known: string) => (typed.trim() ? typed : known);
  return {
    name: fill(contact.name, user.given_name),
    surname: fill(contact.surname, user.family_name),
    email: fill(contact.email, user.email),
    phone: fill(contact.phone, user.phone_number),
  };
}

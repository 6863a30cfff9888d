import type { EnquiryInput } from '../../generated/EnquiryInput';
import type { EnquiryKind } from '../../generated/EnquiryKind';
import { emailProblem, phoneProblem } from '../../lib/contact-rules';

// The same rules as enrol_domain::enquiry on the server, so the browser can
// say what is wrong before sending; the server checks again.

export type EnquiryField = keyof EnquiryInput;
export type FieldErrors = Partial<Record<EnquiryField, string>>;

const REQUIRED: Record<EnquiryKind, EnquiryField[]> = {
  contact: ['name', 'email', 'message'],
  callback: ['name', 'phone'],
  business: ['company', 'name', 'email', 'phone', 'message'],
  models: ['name', 'email', 'phone', 'treatment'],
};

const REQUIRED_MESSAGES: Partial<Record<EnquiryField, string>> = {
  name: 'Name is required',
  email: 'Email is required',
  phone: 'Phone number is required',
  company: 'Company is required',
  message: 'Message is required',
  treatment: 'Please choose a treatment',
};

export function isRequired(kind: EnquiryKind, field: EnquiryField): boolean {
  return REQUIRED[kind].includes(field);
}

export function validateEnquiry(kind: EnquiryKind, input: EnquiryInput): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of REQUIRED[kind]) {
    if (!input[field].trim()) errors[field] = REQUIRED_MESSAGES[field];
  }
  const email = emailProblem(input.email);
  if (email) errors.email = email;
  const phone = phoneProblem(input.phone);
  if (phone) errors.phone = phone;
  if (input.message.length > 5000) errors.message = 'Please keep your message under 5,000 characters';
  return errors;
}

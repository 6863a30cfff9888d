import type { SignUpRequest } from '../../generated/SignUpRequest';
import { isValidEmail, isValidPhone } from '../enquiries/enquiry-rules';

// §5 and decision 008: the same rules as enrol_domain::auth on the server, so
// the browser can say what is wrong before sending; the server checks again.

export const ACCOUNT_PATH = '/account/';
export const MIN_PASSWORD = 10;
const MAX_PASSWORD = 200;
const MAX_NAME = 100;

export interface SignInDetails {
  email: string;
  password: string;
}

export type SignInField = keyof SignInDetails;
export type SignInErrors = Partial<Record<SignInField, string>>;
export type SignUpField = keyof SignUpRequest;
export type SignUpErrors = Partial<Record<SignUpField, string>>;

export const SIGN_IN_FIELDS: SignInField[] = ['email', 'password'];
export const SIGN_UP_FIELDS: SignUpField[] = ['email', 'password', 'first_name', 'last_name', 'phone'];

const REQUIRED: Record<SignUpField, string> = {
  email: 'Email is required',
  password: 'Password is required',
  first_name: 'First name is required',
  last_name: 'Last name is required',
  phone: 'Phone number is required',
};

// Passwords are taken as typed: spaces count.
const isBlank = (field: SignUpField, value: string) => (field === 'password' ? value === '' : value.trim() === '');

export function validateSignIn(details: SignInDetails): SignInErrors {
  const errors: SignInErrors = {};
  for (const field of SIGN_IN_FIELDS) {
    if (isBlank(field, details[field])) errors[field] = REQUIRED[field];
  }
  return errors;
}

export function validateSignUp(details: SignUpRequest): SignUpErrors {
  const errors: SignUpErrors = {};
  for (const field of SIGN_UP_FIELDS) {
    if (isBlank(field, details[field])) errors[field] = REQUIRED[field];
  }
  const email = details.email.trim().toLowerCase();
  if (email && !isValidEmail(email)) errors.email = 'Enter a valid email address';
  const phone = details.phone.trim();
  if (phone && !isValidPhone(phone)) errors.phone = 'Enter a valid phone number';
  // Counted in characters, as the server counts them, not UTF-16 units.
  const length = Array.from(details.password).length;
  if (length > 0 && length < MIN_PASSWORD) errors.password = `Use at least ${MIN_PASSWORD} characters`;
  else if (length > MAX_PASSWORD) errors.password = `Use at most ${MAX_PASSWORD} characters`;
  for (const field of ['first_name', 'last_name'] as const) {
    if (Array.from(details[field].trim()).length > MAX_NAME) errors[field] = `Please keep this under ${MAX_NAME} characters`;
  }
  return errors;
}

/** What is sent: trimmed, except the password. */
export function trimSignUp(details: SignUpRequest): SignUpRequest {
  return {
    email: details.email.trim(),
    password: details.password,
    first_name: details.first_name.trim(),
    last_name: details.last_name.trim(),
    phone: details.phone.trim(),
  };
}

/**
 * Where to go after signing in: the `next` parameter when it is a path of
 * this site (a single leading '/', so never `//elsewhere.example`), else the
 * account. Browser only: QuickJS has no URLSearchParams.
 */
export function nextPathOf(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/(?![/\\])/.test(next) ? next : ACCOUNT_PATH;
}

/** The sign-in page, coming back to `path` afterwards. */
export function signInPathFor(path: string): string {
  return `/sign-in/?next=${encodeURIComponent(path).replace(/%2F/g, '/')}`;
}

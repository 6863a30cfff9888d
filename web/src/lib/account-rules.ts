import type { SignUpRequest } from '../generated/SignUpRequest';
import { emailProblem, phoneProblem } from './contact-rules';

// Decision 008: the same rules as enrol_domain::auth on the server, so
// the browser can say what is wrong before sending; the server checks again.

export const MIN_PASSWORD = 10;
const MAX_PASSWORD = 200;
const MAX_NAME = 200;

export interface SignInDetails {
  email: string;
  password: string;
}

export type SignInField = keyof SignInDetails;
export type SignInErrors = Partial<Record<SignInField, string>>;
export type SignUpField = keyof SignUpRequest;
export type SignUpErrors = Partial<Record<SignUpField, string>>;
/** The form a reset link opens: a new password. */
export type NewPassword = Pick<SignInDetails, 'password'>;
/** The form that asks for a reset link. */
export type ResetRequest = Pick<SignInDetails, 'email'>;

export const SIGN_IN_FIELDS: SignInField[] = ['email', 'password'];
export const SIGN_UP_FIELDS: SignUpField[] = ['email', 'password', 'first_name', 'last_name', 'phone'];
export const NEW_PASSWORD_FIELDS: (keyof NewPassword)[] = ['password'];
export const RESET_REQUEST_FIELDS: (keyof ResetRequest)[] = ['email'];

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

/** Only the fields that have a message. */
function withMessages<F extends string>(messages: Record<F, string | undefined>): Partial<Record<F, string>> {
  return Object.fromEntries(Object.entries(messages).filter(([, message]) => message)) as Partial<Record<F, string>>;
}

function emailError(email: string): string | undefined {
  return email.trim() ? emailProblem(email) : REQUIRED.email;
}

/** A password being chosen: counted in characters, as the server counts them, not UTF-16 units. */
function newPasswordError(password: string): string | undefined {
  const length = Array.from(password).length;
  if (length === 0) return REQUIRED.password;
  if (length < MIN_PASSWORD) return `Use at least ${MIN_PASSWORD} characters`;
  return length > MAX_PASSWORD ? `Use at most ${MAX_PASSWORD} characters` : undefined;
}

function nameError(field: 'first_name' | 'last_name', name: string): string | undefined {
  const length = Array.from(name.trim()).length;
  if (length === 0) return REQUIRED[field];
  return length > MAX_NAME ? `Please keep this under ${MAX_NAME} characters` : undefined;
}

function phoneError(phone: string): string | undefined {
  return phone.trim() ? phoneProblem(phone) : REQUIRED.phone;
}

export function validateSignUp(details: SignUpRequest): SignUpErrors {
  return withMessages<SignUpField>({
    email: emailError(details.email),
    password: newPasswordError(details.password),
    first_name: nameError('first_name', details.first_name),
    last_name: nameError('last_name', details.last_name),
    phone: phoneError(details.phone),
  });
}

/** The password chosen at sign-up, asked again to confirm the email (decision 009). */
export function validatePassword(details: NewPassword): Partial<NewPassword> {
  return withMessages({ password: isBlank('password', details.password) ? REQUIRED.password : undefined });
}

export function validateNewPassword(details: NewPassword): Partial<NewPassword> {
  return withMessages({ password: newPasswordError(details.password) });
}

export function validateResetRequest(details: ResetRequest): Partial<ResetRequest> {
  return withMessages({ email: emailError(details.email) });
}

/** The account's own details (name and phone), as the profile changes them. */
export type ProfileDetails = Pick<SignUpRequest, 'first_name' | 'last_name' | 'phone'>;

export function validateProfile(details: ProfileDetails): Partial<ProfileDetails> {
  return withMessages<keyof ProfileDetails>({
    first_name: nameError('first_name', details.first_name),
    last_name: nameError('last_name', details.last_name),
    phone: phoneError(details.phone),
  });
}

/** A password change: the current password, and a new one that meets the rule. */
export interface PasswordChange {
  current_password: string;
  new_password: string;
}

export function validatePasswordChange(details: PasswordChange): Partial<PasswordChange> {
  return withMessages<keyof PasswordChange>({
    current_password: details.current_password === '' ? 'Enter your current password' : undefined,
    new_password: newPasswordError(details.new_password),
  });
}

/** A move to a new email address, with the account's password. */
export interface EmailChangeDetails {
  email: string;
  password: string;
}

export function validateEmailChange(details: EmailChangeDetails): Partial<EmailChangeDetails> {
  return withMessages<keyof EmailChangeDetails>({
    email: emailError(details.email),
    password: isBlank('password', details.password) ? REQUIRED.password : undefined,
  });
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

/** The form a course's start link opens: the names for the certificate, and a password. */
export type CourseStartDetails = Pick<SignUpRequest, 'first_name' | 'last_name' | 'password'>;
export const COURSE_START_FIELDS: (keyof CourseStartDetails)[] = ['first_name', 'last_name', 'password'];

export function validateCourseStart(details: CourseStartDetails): Partial<CourseStartDetails> {
  return withMessages<keyof CourseStartDetails>({
    first_name: nameError('first_name', details.first_name),
    last_name: nameError('last_name', details.last_name),
    password: newPasswordError(details.password),
  });
}

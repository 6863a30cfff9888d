import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field, fieldId, focusFirstError } from '../../components/ui/field';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import type { SignUpRequest } from '../../generated/SignUpRequest';
import { ApiError, fieldErrorsOf } from '../../lib/api';
import { useAuth } from './auth-context';
import {
  ACCOUNT_PATH, MIN_PASSWORD, SIGN_UP_FIELDS, trimSignUp, validateSignUp, type SignUpErrors, type SignUpField,
} from './auth-rules';

const INPUTS: Record<SignUpField, { label: string; type: 'text' | 'email' | 'tel' | 'password'; autoComplete: string; hint?: string }> = {
  email: { label: 'Email', type: 'email', autoComplete: 'email' },
  password: { label: 'Password', type: 'password', autoComplete: 'new-password', hint: `At least ${MIN_PASSWORD} characters` },
  first_name: { label: 'First name', type: 'text', autoComplete: 'given-name' },
  last_name: { label: 'Last name', type: 'text', autoComplete: 'family-name' },
  phone: { label: 'Phone number', type: 'tel', autoComplete: 'tel' },
};

const EMPTY: SignUpRequest = { email: '', password: '', first_name: '', last_name: '', phone: '' };

/** §2 /sign-up/: §5 requires every field; the new account is signed in and sees its account. */
export function SignUpPage({ page }: { page: AccountFormPage }) {
  const id = useId();
  const { signUp } = useAuth();
  const navigate = useNavigate();
  const [values, setValues] = useState<SignUpRequest>(EMPTY);
  const [errors, setErrors] = useState<SignUpErrors>({});
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);

  function refuse(found: SignUpErrors) {
    setErrors(found);
    focusFirstError(id, SIGN_UP_FIELDS, found);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const found = validateSignUp(values);
    if (Object.keys(found).length > 0) {
      refuse(found);
      return;
    }
    setErrors({});
    setSending(true);
    setMessage('');
    try {
      await signUp(trimSignUp(values));
      void navigate(ACCOUNT_PATH);
    } catch (error) {
      setSending(false);
      const fields: SignUpErrors = error instanceof ApiError ? fieldErrorsOf(error, SIGN_UP_FIELDS) : {};
      if (Object.keys(fields).length > 0) refuse(fields);
      else setMessage(error instanceof Error ? error.message : String(error));
    }
  }

  function change(field: SignUpField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  return (
    <div className="container account-form">
      <h1 id={`${id}-title`}>{page.heading}</h1>
      <noscript>
        <p>Creating an account needs JavaScript. Please turn it on, or call us and we will help you.</p>
      </noscript>
      <form noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
        {SIGN_UP_FIELDS.map((field) => (
          <Field
            key={field}
            id={fieldId(id, field)}
            {...INPUTS[field]}
            required
            value={values[field]}
            error={errors[field]}
            onChange={(value) => change(field, value)}
          />
        ))}
        <p role="alert" className="form-error">{message}</p>
        <button type="submit" className="button button-wide" aria-disabled={sending}>
          {sending ? 'Creating your account...' : 'Create account'}
        </button>
      </form>
      <p className="account-form-switch">
        Already have an account? <Link to="/sign-in/">Sign in</Link>
      </p>
    </div>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Field, fieldId, focusFirstError } from '../../components/ui/field';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import { useAuth } from './auth-context';
import { nextPathOf, SIGN_IN_FIELDS, validateSignIn, type SignInDetails, type SignInErrors, type SignInField } from './auth-rules';

/** §2 /sign-in/: on success to the account, or to the same-site `?next=` path. */
export function SignInPage({ page }: { page: AccountFormPage }) {
  const id = useId();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [values, setValues] = useState<SignInDetails>({ email: '', password: '' });
  const [errors, setErrors] = useState<SignInErrors>({});
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const found = validateSignIn(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(id, SIGN_IN_FIELDS, found);
      return;
    }
    setSending(true);
    setMessage('');
    const result = await signIn(values.email.trim(), values.password);
    if (result.signedIn) {
      void navigate(nextPathOf(search));
      return;
    }
    setSending(false);
    setMessage(result.message);
  }

  function change(field: SignInField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  return (
    <div className="container account-form">
      <h1 id={`${id}-title`}>{page.heading}</h1>
      <noscript>
        <p>Signing in needs JavaScript. Please turn it on, or call us and we will help you.</p>
      </noscript>
      <form noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
        <Field
          id={fieldId(id, 'email')} label="Email" type="email" autoComplete="username" required
          value={values.email} error={errors.email} onChange={(value) => change('email', value)}
        />
        <Field
          id={fieldId(id, 'password')} label="Password" type="password" autoComplete="current-password" required
          value={values.password} error={errors.password} onChange={(value) => change('password', value)}
        />
        <p role="alert" className="form-error">{message}</p>
        <button type="submit" className="button button-wide" aria-disabled={sending}>
          {sending ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
      <p className="account-form-switch">
        New here? <Link to="/sign-up/">Create an account</Link>
      </p>
    </div>
  );
}

import { useState } from 'react';
import { Link, useNavigate } from '../../lib/router';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import type { SignUpRequest } from '../../generated/SignUpRequest';
import { AccountForm } from '../../components/account-form';
import { goToAccountSaying } from '../../lib/account-notice';
import { useAuth } from '../../lib/auth';
import { trackConversion } from '../../lib/conversions';
import { MIN_PASSWORD, SIGN_UP_FIELDS, trimSignUp, validateSignUp, type SignUpField } from '../../lib/account-rules';
import { MailSent } from './mail-sent';

const INPUTS: Record<SignUpField, { label: string; type: 'text' | 'email' | 'tel' | 'password'; autoComplete: string; hint?: string }> = {
  email: { label: 'Email', type: 'email', autoComplete: 'email' },
  password: { label: 'Password', type: 'password', autoComplete: 'new-password', hint: `At least ${MIN_PASSWORD} characters` },
  first_name: { label: 'First name', type: 'text', autoComplete: 'given-name' },
  last_name: { label: 'Last name', type: 'text', autoComplete: 'family-name' },
  phone: { label: 'Phone number', type: 'tel', autoComplete: 'tel' },
};

const EMPTY: SignUpRequest = { email: '', password: '', first_name: '', last_name: '', phone: '' };

/**
 * /sign-up/: every field is required (docs/product.md#accounts). A new
 * account is signed in at once and lands on the account, which says a link
 * is on its way to prove the email (decision 009). An email that has an account signs
 * nobody in: the page says its owner was mailed a link.
 */
export function SignUpPage({ page }: { page: AccountFormPage }) {
  const { signUp } = useAuth();
  const navigate = useNavigate();
  const [mailed, setMailed] = useState(false);
  const form = useForm({
    fields: SIGN_UP_FIELDS,
    initial: EMPTY,
    validate: validateSignUp,
    send: async (values) => {
      const details = trimSignUp(values);
      const result = await signUp(details);
      trackConversion('signup');
      if (result === 'signedIn') {
        goToAccountSaying(navigate, `Welcome: your account is ready. We have sent a link to ${details.email}: open it to confirm your email address.`);
      } else {
        setMailed(true);
      }
    },
  });

  if (mailed) {
    return (
      <MailSent>
        <p>
          There is already an account for <strong>{form.values.email.trim()}</strong>. We have sent an email there
          with a link to choose a password, or you can <Link to="/sign-in/">sign in</Link>.
        </p>
      </MailSent>
    );
  }

  return (
    <AccountForm
      heading={page.heading}
      form={form}
      action="Creating an account"
      submit="Create account"
      sending="Creating your account..."
      footer={
        <p className="account-form-switch">
          Already have an account? <Link to="/sign-in/">Sign in</Link>
        </p>
      }
    >
      {SIGN_UP_FIELDS.map((field) => (
        <Field key={field} {...form.field(field)} {...INPUTS[field]} required />
      ))}
    </AccountForm>
  );
}

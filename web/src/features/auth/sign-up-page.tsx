import { Link } from 'react-router';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import type { SignUpRequest } from '../../generated/SignUpRequest';
import { AccountForm } from './account-form';
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
 * §2 /sign-up/: §5 requires every field. The account waits for its email
 * to be confirmed by the mailed link, which signs in (decision 009); until
 * then the page says where the link went, the same for every email.
 */
export function SignUpPage({ page }: { page: AccountFormPage }) {
  const { signUp } = useAuth();
  const form = useForm({
    fields: SIGN_UP_FIELDS,
    initial: EMPTY,
    validate: validateSignUp,
    send: async (values) => {
      await signUp(trimSignUp(values));
      trackConversion('signup');
    },
  });

  if (form.status === 'sent') {
    return (
      <MailSent>
        <p>
          We have sent an email to <strong>{form.values.email.trim()}</strong>. Open the link in it to confirm your
          email address and sign in.
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

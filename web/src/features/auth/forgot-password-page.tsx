import { Link } from '../../lib/router';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import { AccountForm } from '../../components/account-form';
import { useAuth } from '../../lib/auth';
import { RESET_REQUEST_FIELDS, validateResetRequest } from '../../lib/account-rules';
import { MailSent } from './mail-sent';

/**
 * /forgot-password/ (decision 008): mails a link to choose a new password.
 * What follows reads the same for every email, so it never tells whether
 * the address has an account.
 */
export function ForgotPasswordPage({ page }: { page: AccountFormPage }) {
  const { requestPasswordReset } = useAuth();
  const form = useForm({
    fields: RESET_REQUEST_FIELDS,
    initial: { email: '' },
    validate: validateResetRequest,
    send: ({ email }) => requestPasswordReset(email.trim()),
  });

  if (form.status === 'sent') {
    return (
      <MailSent
        footer={
          <p className="account-form-switch">
            <Link to="/sign-in/">Back to sign in</Link>
          </p>
        }
      >
        <p>
          If an account exists for <strong>{form.values.email.trim()}</strong>, we have sent it a link to choose a new
          password. The link works for an hour.
        </p>
      </MailSent>
    );
  }

  return (
    <AccountForm
      heading={page.heading}
      form={form}
      action="Resetting your password"
      submit="Email me a link"
      sending="Sending..."
      intro={<p>Enter the email address of your account, and we will email you a link to choose a new password.</p>}
      footer={
        <p className="account-form-switch">
          Remembered it? <Link to="/sign-in/">Sign in</Link>
        </p>
      }
    >
      <Field {...form.field('email')} label="Email" type="email" autoComplete="email" required />
    </AccountForm>
  );
}

import { Link, useNavigate } from '../../lib/router';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import { AccountForm } from '../../components/account-form';
import { goToAccountSaying } from '../../lib/account-notice';
import { useAuth } from '../../lib/auth';
import { NEW_PASSWORD_FIELDS, validatePassword } from '../../lib/account-rules';
import { useLinkToken } from '../../lib/use-link-token';

const SIGN_IN = <Link to="/sign-in/">Sign in</Link>;

/**
 * /verify-email/?token=…, the link of the sign-up mail (decision 009). The
 * link proves the mailbox and the password proves who signed up, so both
 * are asked: an owner who opens a link an impostor's sign-up sent cannot
 * confirm that account. Then the browser is signed in (sign-up is
 * followed by sign-in, docs/product.md#accounts) and the account says so.
 * A link that expired or was used says how to get a new one: the account
 * sends it again.
 */
export function VerifyEmailPage({ page }: { page: AccountFormPage }) {
  const token = useLinkToken();
  const { verifyEmail } = useAuth();
  const navigate = useNavigate();
  const form = useForm({
    fields: NEW_PASSWORD_FIELDS,
    initial: { password: '' },
    validate: validatePassword,
    send: async ({ password }) => {
      await verifyEmail(token ?? '', password);
      goToAccountSaying(navigate, 'Your email address is confirmed, and you are signed in.');
    },
  });

  if (token === null) {
    return (
      <div className="container account-form">
        <h1>{page.heading}</h1>
        <p role="alert" className="form-error">
          This link is not complete. Please open the link in your email again, or sign in and ask for a new one in your account.
        </p>
        <p className="account-form-switch">{SIGN_IN}</p>
      </div>
    );
  }

  return (
    <AccountForm
      heading={page.heading}
      form={form}
      action="Confirming your email address"
      submit="Confirm my email"
      sending="Confirming your email address..."
      intro={<p>To confirm your email address, enter the password you chose when you signed up.</p>}
      footer={<p className="account-form-switch">Link expired? {SIGN_IN} and ask for a new one in your account.</p>}
    >
      <Field {...form.field('password')} label="Password" type="password" autoComplete="current-password" required />
    </AccountForm>
  );
}

import { Link, useNavigate } from '../../lib/router';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import { AccountForm } from '../../components/account-form';
import { goToAccountSaying } from '../../lib/account-notice';
import { useAuth } from '../../lib/auth';
import { MIN_PASSWORD, NEW_PASSWORD_FIELDS, validateNewPassword } from '../../lib/account-rules';
import { useLinkToken } from '../../lib/use-link-token';

const ASK_AGAIN = <Link to="/forgot-password/">Ask for a new link</Link>;

/**
 * /reset-password/?token=…, the link of a password mail (decision 008): a
 * new password, then the browser is signed in and the account says so. An
 * expired or used link is refused by the server with a message saying so.
 */
export function ResetPasswordPage({ page }: { page: AccountFormPage }) {
  const token = useLinkToken();
  const { resetPassword } = useAuth();
  const navigate = useNavigate();
  const form = useForm({
    fields: NEW_PASSWORD_FIELDS,
    initial: { password: '' },
    validate: validateNewPassword,
    send: async ({ password }) => {
      await resetPassword(token ?? '', password);
      goToAccountSaying(navigate, 'Your new password is saved, and you are signed in.');
    },
  });

  if (token === null) {
    return (
      <div className="container account-form">
        <h1>{page.heading}</h1>
        <p role="alert" className="form-error">This link is not complete. Please open the link in your email again.</p>
        <p className="account-form-switch">Still stuck? {ASK_AGAIN}</p>
      </div>
    );
  }

  return (
    <AccountForm
      heading={page.heading}
      form={form}
      action="Choosing a new password"
      submit="Save password"
      sending="Saving your password..."
      footer={<p className="account-form-switch">Link expired? {ASK_AGAIN}</p>}
    >
      <Field
        {...form.field('password')} label="New password" type="password" autoComplete="new-password" required
        hint={`At least ${MIN_PASSWORD} characters`}
      />
    </AccountForm>
  );
}

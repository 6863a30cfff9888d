import { Link, useLocation, useNavigate } from '../../lib/router';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import { AccountForm } from '../../components/account-form';
import { useAuth } from '../../lib/auth';
import { nextPathOf } from '../../lib/paths';
import { SIGN_IN_FIELDS, validateSignIn } from '../../lib/account-rules';

/**
 * /sign-in/: on success to the account, or to the same-site `?next=` path.
 * An account whose email is not confirmed yet signs in too; the account
 * asks for the email to be confirmed (decision 009).
 */
export function SignInPage({ page }: { page: AccountFormPage }) {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const { search } = useLocation();
  const form = useForm({
    fields: SIGN_IN_FIELDS,
    initial: { email: '', password: '' },
    validate: validateSignIn,
    send: async ({ email, password }) => {
      const result = await signIn(email.trim(), password);
      if (!result.signedIn) throw new Error(result.message);
      navigate(nextPathOf(search));
    },
  });

  return (
    <AccountForm
      heading={page.heading}
      form={form}
      action="Signing in"
      submit="Sign in"
      sending="Signing in..."
      footer={
        <>
          <p className="account-form-switch">
            <Link to="/forgot-password/">Forgot your password?</Link>
          </p>
          <p>
            New here? <Link to="/sign-up/">Create an account</Link>
          </p>
        </>
      }
    >
      <Field {...form.field('email')} label="Email" type="email" autoComplete="username" required />
      <Field {...form.field('password')} label="Password" type="password" autoComplete="current-password" required />
    </AccountForm>
  );
}

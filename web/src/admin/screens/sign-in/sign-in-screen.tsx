import { Navigate, useLocation, type Location } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../../lib/api';
import { AdminFormView } from '../../components/admin-form';
import { TextField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { useAdminForm } from '../../components/use-admin-form';
import { SignedOutPage } from '../../layout/signed-out-page';
import { adminPost, failureOf } from '../../lib/admin-api';
import type { StaffSession } from '../../lib/api-types';
import { email, secondFactor } from '../../lib/form-rules';
import { useStaffAuth } from '../../lib/staff-session';
import { paths } from '../../paths';

// Decision 017: email, password and the authenticator's code (or one of
// the staff member's recovery codes) in one step.
// Whichever was wrong, the page says the same: the server says only
// "incorrect", and so does the browser. A 429 (five failures in 15 minutes)
// says when to try again, in the server's words.

const INCORRECT = 'Email, password or code is incorrect.';

const schema = z.object({
  email: email(),
  password: z.string().min(1, 'Enter your password'),
  code: secondFactor(),
});

const signInFailure = (error: unknown) => (error instanceof ApiError && error.status === 401 ? INCORRECT : failureOf(error));

export function SignInScreen() {
  const { staff, signedIn } = useStaffAuth();
  const from = (useLocation().state as { from?: Location } | null)?.from;
  const form = useAdminForm({
    schema,
    defaultValues: { email: '', password: '', code: '' },
    labels: { email: 'Email', password: 'Password', code: 'Code from your authenticator app' },
    failure: signInFailure,
    send: async (details) => {
      signedIn(await adminPost<StaffSession>('/api/admin/sign-in', details));
      return 'Signed in.';
    },
  });
  if (staff) return <Navigate to={from ?? paths.dashboard} replace />;

  return (
    <SignedOutPage>
      <PageHeading>Sign in</PageHeading>
      <AdminFormView form={form} submit="Sign in">
        <TextField form={form} name="email" type="email" autoComplete="username" required />
        <TextField form={form} name="password" type="password" autoComplete="current-password" required />
        <TextField form={form} name="code" autoComplete="one-time-code" hint="6 digits, or one of your recovery codes if you have lost your phone" required />
      </AdminFormView>
    </SignedOutPage>
  );
}

import { Field } from '../../../components/ui/field';
import { useForm } from '../../../components/ui/use-form';
import type { AuthUser } from '../../../generated/AuthUser';
import { postJson, putJson } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useLinkToken } from '../../../lib/use-link-token';
import { validateEmailChange, validatePasswordChange, validateProfile } from '../../../lib/account-rules';

// The student's own details: name and phone (kept in +44 form), their
// email (moved only once a link mailed to the new address is opened) and
// their password, given the current one (other browsers are signed out).

const PROFILE_FIELDS = ['first_name', 'last_name', 'phone'] as const;
const PASSWORD_FIELDS = ['current_password', 'new_password'] as const;
const EMAIL_FIELDS = ['email', 'password'] as const;

function ProfileForm({ user }: { user: AuthUser }) {
  const { refreshSession } = useAuth();
  const form = useForm({
    fields: PROFILE_FIELDS,
    initial: { first_name: user.given_name, last_name: user.family_name, phone: user.phone_number },
    validate: validateProfile,
    send: async (values) => {
      await putJson('/api/account/profile', values);
      await refreshSession();
    },
  });
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby={`${form.id}-title`}>
      <h3 id={`${form.id}-title`}>Your details</h3>
      <Field {...form.field('first_name')} label="First name" required autoComplete="given-name" />
      <Field {...form.field('last_name')} label="Last name" required autoComplete="family-name" />
      <Field {...form.field('phone')} label="Phone number" required type="tel" autoComplete="tel" />
      <p role="alert" className="form-error">{form.status === 'sent' ? '' : form.message}</p>
      {form.status === 'sent' && <p role="status">Your details are saved.</p>}
      <button type="submit" className="button" aria-disabled={form.status === 'sending'}>{form.status === 'sending' ? 'Saving...' : 'Save details'}</button>
    </form>
  );
}

function PasswordForm() {
  const form = useForm({
    fields: PASSWORD_FIELDS,
    initial: { current_password: '', new_password: '' },
    validate: validatePasswordChange,
    send: async (values) => {
      await postJson('/api/account/password', values);
    },
  });
  if (form.status === 'sent') return <p role="status">Your password is changed. Other browsers signed in to your account are signed out.</p>;
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby={`${form.id}-title`}>
      <h3 id={`${form.id}-title`}>Change your password</h3>
      <Field {...form.field('current_password')} label="Current password" required type="password" autoComplete="current-password" />
      <Field {...form.field('new_password')} label="New password" required type="password" autoComplete="new-password" hint="At least 10 characters." />
      <p role="alert" className="form-error">{form.message}</p>
      <button type="submit" className="button" aria-disabled={form.status === 'sending'}>{form.status === 'sending' ? 'Changing...' : 'Change password'}</button>
    </form>
  );
}

function EmailForm({ user }: { user: AuthUser }) {
  const form = useForm({
    fields: EMAIL_FIELDS,
    initial: { email: '', password: '' },
    validate: validateEmailChange,
    send: async (values) => {
      await postJson('/api/account/email', { email: values.email.trim(), password: values.password });
    },
  });
  if (form.status === 'sent') {
    return <p role="status">{`We have sent a link to ${form.values.email.trim()}. Open it while signed in to use that address; until then ${user.email} stays your email.`}</p>;
  }
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby={`${form.id}-title`}>
      <h3 id={`${form.id}-title`}>Change your email</h3>
      <p>{`Your email address is ${user.email}.`}</p>
      <Field {...form.field('email')} label="New email address" required type="email" autoComplete="email" />
      <Field {...form.field('password')} label="Your password" required type="password" autoComplete="current-password" />
      <p role="alert" className="form-error">{form.message}</p>
      <button type="submit" className="button" aria-disabled={form.status === 'sending'}>{form.status === 'sending' ? 'Sending...' : 'Send me a link'}</button>
    </form>
  );
}

/** The mailed link of an email change (`?token=`), confirmed by the signed-in owner. */
function ConfirmEmail({ token }: { token: string }) {
  const { refreshSession } = useAuth();
  const form = useForm({
    fields: [] as const,
    initial: {},
    validate: () => ({}),
    send: async () => {
      await postJson('/api/account/email/confirm', { token });
      await refreshSession();
    },
  });
  if (form.status === 'sent') return <p role="status">Your email address is changed. We have told your old address too.</p>;
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby={`${form.id}-title`} className="account-card">
      <h3 id={`${form.id}-title`}>Confirm your new email</h3>
      <p>You opened the link we mailed to your new address. Confirm to use it for your account.</p>
      <p role="alert" className="form-error">{form.message}</p>
      <button type="submit" className="button" aria-disabled={form.status === 'sending'}>{form.status === 'sending' ? 'Confirming...' : 'Use my new email'}</button>
    </form>
  );
}

export function Profile({ user }: { user: AuthUser }) {
  const token = useLinkToken();
  return (
    <>
      {token && <ConfirmEmail token={token} />}
      <ProfileForm user={user} />
      <EmailForm user={user} />
      <PasswordForm />
    </>
  );
}

import { useEffect, useRef, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { MIN_PASSWORD, validateNewPassword } from '../../../lib/account-rules';
import { AdminFormView } from '../../components/admin-form';
import { TextField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RecoveryCodes } from '../../components/recovery-codes';
import { RequestView } from '../../components/request-view';
import { useAdminForm } from '../../components/use-admin-form';
import { SignedOutPage } from '../../layout/signed-out-page';
import { adminPost, apiPath } from '../../lib/admin-api';
import type { Invitation, SetUp } from '../../lib/api-types';
import { authenticatorCode } from '../../lib/form-rules';
import { ROLE_LABELS } from '../../lib/labels';
import { useStaffAuth } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';

// The set-up link's page (decision 017): who the invitation is for, the
// second factor's secret as text and as the server's QR code, then a
// password and a first code, so an account is never usable without its
// second factor. Sending signs in and shows the recovery codes, once,
// before the back office opens.

// The password rule is the students' (account-rules.ts), as the server's
// set-up checks it with the same `password_problem`.
const schema = z.object({
  password: z.string().superRefine((password, context) => {
    const problem = validateNewPassword({ password }).password;
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }),
  code: authenticatorCode(),
});

/** The server's SVG, shown as an image: it is never put into the page's own markup. */
const svgImage = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** The codes, until staff say they have kept them; then the back office. */
function KeepCodes({ done, email }: { done: SetUp; email: string }) {
  const { signedIn } = useStaffAuth();
  const [kept, setKept] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  if (kept) return <Navigate to={paths.dashboard} replace />;
  return (
    <>
      <h2 tabIndex={-1} ref={heading} className="form-done">
        Your account is ready.
      </h2>
      <RecoveryCodes codes={done.recoveryCodes} email={email} />
      <button
        type="button"
        className="button"
        onClick={() => {
          signedIn({ staff: done.staff });
          setKept(true);
        }}
      >
        I have kept my codes: open the back office
      </button>
    </>
  );
}

function SetupForm({ token, invitation }: { token: string; invitation: Invitation }) {
  const [done, setDone] = useState<SetUp | null>(null);
  const form = useAdminForm({
    schema,
    defaultValues: { password: '', code: '' },
    labels: { password: 'Choose a password', code: 'Code from your authenticator app' },
    send: async (details) => {
      setDone(await adminPost<SetUp>(apiPath('invitations', token), details));
      return 'Your account is ready.';
    },
  });
  if (done) return <KeepCodes done={done} email={invitation.email} />;
  return (
    <>
      <dl className="details">
        <dt>Name</dt>
        <dd>{invitation.name}</dd>
        <dt>Email</dt>
        <dd>{invitation.email}</dd>
        <dt>Role</dt>
        <dd>{ROLE_LABELS[invitation.role]}</dd>
      </dl>
      <h2>1. Add the back office to your authenticator app</h2>
      <p>Scan this code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password or similar).</p>
      <img className="qr-code" src={svgImage(invitation.qrSvg)} alt={`QR code that adds ${invitation.email} to an authenticator app`} width="200" height="200" />
      <p>
        Or type this key into the app: <code className="secret">{invitation.secret}</code>
      </p>
      <h2>2. Choose a password and enter the first code</h2>
      <AdminFormView form={form} submit="Finish setting up">
        <TextField form={form} name="password" type="password" autoComplete="new-password" hint={`At least ${MIN_PASSWORD} characters`} required />
        <TextField form={form} name="code" inputMode="numeric" autoComplete="one-time-code" hint="The 6 digits the app shows now" required />
      </AdminFormView>
    </>
  );
}

export function SetupScreen() {
  const token = useSearchParams()[0].get('token');
  const invitation = useAdminData<Invitation>(token ? apiPath('invitations', token) : null);
  return (
    <SignedOutPage>
      <PageHeading>Set up your account</PageHeading>
      {token ? (
        <RequestView request={invitation} what="your invitation" missing="This set-up link has expired or has already been used. Ask an owner to add you again.">
          {(found) => <SetupForm token={token} invitation={found} />}
        </RequestView>
      ) : (
        <p className="refusal">This set-up link is incomplete. Open the link in your email again.</p>
      )}
    </SignedOutPage>
  );
}

import { useState } from 'react';
import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { TextField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RecoveryCodes } from '../../components/recovery-codes';
import { RequestView } from '../../components/request-view';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPost, apiPath } from '../../lib/admin-api';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';

// The signed-in staff member's own recovery codes (decision 017): how many
// are unused, and a new set after the password, which voids every code of
// the last and is shown once.

const RECOVERY_PATH = apiPath('recovery-codes');

const schema = z.object({ password: z.string().min(1, 'Enter your password') });

export function RecoveryCodesScreen() {
  const staff = useStaff();
  const left = useAdminData<{ left: number }>(RECOVERY_PATH);
  const [codes, setCodes] = useState<string[] | null>(null);
  const form = useAdminForm({
    schema,
    defaultValues: { password: '' },
    labels: { password: 'Your password' },
    clearWhenSent: true,
    send: async ({ password }) => {
      const made = await adminPost<{ codes: string[] }>(RECOVERY_PATH, { password });
      setCodes(made.codes);
      left.retry();
      return 'New recovery codes made: the old ones no longer work.';
    },
  });
  return (
    <>
      <PageHeading>Recovery codes</PageHeading>
      <RequestView request={left} what="your recovery codes">
        {({ left: unused }) => <p>{unused === 1 ? 'You have 1 unused recovery code.' : `You have ${unused} unused recovery codes.`}</p>}
      </RequestView>
      {codes && <RecoveryCodes codes={codes} email={staff.email} />}
      <h2>Make new recovery codes</h2>
      <p>Ten new codes replace every code you have now, used or not. Make new ones when you have used some, or if anyone else may have seen them.</p>
      <AdminFormView form={form} submit="Make new recovery codes">
        <TextField form={form} name="password" type="password" autoComplete="current-password" required />
      </AdminFormView>
    </>
  );
}

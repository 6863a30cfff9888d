import { useMemo } from 'react';
import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { CommandStatus } from '../../components/command-status';
import { ConfirmStep } from '../../components/confirm-step';
import { columnsOf, DataTable } from '../../components/data-table';
import { ChoiceField, TextField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useAdminForm } from '../../components/use-admin-form';
import { useCommand } from '../../components/use-command';
import { adminPost, apiPath } from '../../lib/admin-api';
import type { Role, StaffMember } from '../../lib/api-types';
import { email, oneOf, requiredText } from '../../lib/form-rules';
import { choicesOf, formatInstant, labelOf, ROLE_LABELS } from '../../lib/labels';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';

// Staff (owners only, decision 017): who can sign in to the back office and
// as what. Adding someone mails them a set-up link, shown here too; they
// choose their password and second factor there. Disabling someone ends
// their sessions at once.

const STAFF_PATH = '/api/admin/staff';
const ROLES: readonly [Role, ...Role[]] = ['owner', 'staff', 'tutor', 'editor'];

/** Disables a member of staff once confirmed; it stays in its row after, to say it did. */
function DisableStaff({ member, reload }: { member: StaffMember; reload: () => void }) {
  const disabling = useCommand();
  return (
    <>
      {member.active && (
        <ConfirmStep
          ask={`Disable ${member.name}…`}
          confirm={`Yes, disable ${member.name}`}
          keep="No, keep them"
          busy={disabling.busy}
          onConfirm={() =>
            void disabling.run(async () => {
              await adminPost<null>(apiPath('staff', member.id, 'disable'));
              reload();
              return `${member.name} is disabled.`;
            })
          }
        >
          <p>{`${member.name} is signed out now and can no longer sign in.`}</p>
        </ConfirmStep>
      )}
      <CommandStatus command={disabling} />
    </>
  );
}

const column = columnsOf<StaffMember>();

function StaffTable({ staff, reload }: { staff: StaffMember[]; reload: () => void }) {
  const me = useStaff().id;
  const columns = useMemo(
    () =>
      column.columns([
        column.accessor('name', { header: 'Name' }),
        column.accessor('email', { header: 'Email' }),
        column.accessor('role', { header: 'Role', cell: (info) => labelOf(ROLE_LABELS, info.getValue()) }),
        column.accessor('active', { header: 'Status', cell: (info) => (info.getValue() ? 'Active' : 'Not active') }),
        column.accessor('createdAt', { header: 'Added', cell: (info) => formatInstant(info.getValue()) }),
        column.accessor('lastSignInAt', { header: 'Last signed in', cell: (info) => (info.getValue() ? formatInstant(info.getValue() ?? '') : 'Never') }),
        column.display({
          id: 'disable',
          header: 'Disable',
          cell: (info) => (info.row.original.id !== me ? <DisableStaff member={info.row.original} reload={reload} /> : null),
        }),
      ]),
    [me, reload],
  );
  return <DataTable caption="Staff" columns={columns} rows={staff} rowId={(member) => member.id} empty="Nobody yet." initialSort={[{ id: 'name', desc: false }]} />;
}

const addSchema = z.object({ email: email(), name: requiredText('Enter their name'), role: oneOf(ROLES, 'Choose their role') });

function AddStaffForm({ reload }: { reload: () => void }) {
  const form = useAdminForm({
    schema: addSchema,
    defaultValues: { email: '', name: '', role: '' },
    labels: { email: 'Email', name: 'Name', role: 'Role' },
    clearWhenSent: true,
    send: async (member) => {
      const added = await adminPost<{ id: string; setupLink: string }>(STAFF_PATH, member);
      reload();
      return `${member.name} is added and emailed their set-up link, which works for 48 hours: ${added.setupLink}`;
    },
  });
  return (
    <AdminFormView form={form} submit="Add">
      <TextField form={form} name="email" type="email" required />
      <TextField form={form} name="name" required />
      <ChoiceField form={form} name="role" choices={choicesOf(ROLE_LABELS)} none="Please choose" hint="Owners also manage staff; tutors see their own sessions’ rosters; editors the content" required />
    </AdminFormView>
  );
}

export function StaffScreen() {
  const staff = useAdminData<{ staff: StaffMember[] }>(STAFF_PATH);
  return (
    <>
      <PageHeading>Staff</PageHeading>
      <RequestView request={staff} what="the staff">
        {({ staff: found }) => <StaffTable staff={found} reload={staff.retry} />}
      </RequestView>
      <h2>Add someone</h2>
      <AddStaffForm reload={staff.retry} />
    </>
  );
}

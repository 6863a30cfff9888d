import { useId, useState } from 'react';
import { z } from 'zod';
import { formatShortDate } from '../../../lib/dates';
import { AdminFormView } from '../../components/admin-form';
import { ConfirmStep } from '../../components/confirm-step';
import { TextField } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import { useCommand } from '../../components/use-command';
import { adminPost, apiPath } from '../../lib/admin-api';
import type { Learner } from '../../lib/api-types';
import { date, email, optionalDate, requiredText } from '../../lib/form-rules';
import { accessLabel } from '../../lib/labels';

// Staff's changes to access (decision 027, the `money` permission): a
// course given to a student by email, a registration's last day moved,
// access withdrawn with a reason and given back. Each answers the
// registration; the page then reads its list again (`onChanged`).

type Changed = () => void;

/** Sends one change to registration `id` (`['last-day']`, `['revoke']`); answers the registration as it is now. */
async function changeRegistration(id: string, action: string, body: unknown = {}): Promise<Learner> {
  return (await adminPost<{ registration: Learner }>(apiPath('online-registrations', id, action), body)).registration;
}

const grantSchema = z.object({ email: email(), lastDay: optionalDate() });

export function GrantForm({ courseId, onChanged }: { courseId: string; onChanged: Changed }) {
  const form = useAdminForm({
    schema: grantSchema,
    defaultValues: { email: '', lastDay: '' },
    labels: { email: 'Student’s email', lastDay: 'Last day of access' },
    clearWhenSent: true,
    send: async (grant) => {
      const { registration } = await adminPost<{ registration: Learner }>('/api/admin/online-registrations', { ...grant, courseId });
      onChanged();
      return `${registration.email} has the course until ${formatShortDate(registration.lastDay)}.`;
    },
  });
  return (
    <AdminFormView form={form} submit="Give the course">
      <TextField form={form} name="email" type="email" hint="Their account’s address: they need an account first." required />
      <TextField form={form} name="lastDay" type="date" hint="Leave blank for the course’s usual months of access." />
    </AdminFormView>
  );
}

const lastDaySchema = z.object({ lastDay: date('Choose the last day of access') });

function LastDayForm({ registration, onChanged }: { registration: Learner; onChanged: Changed }) {
  const form = useAdminForm({
    schema: lastDaySchema,
    defaultValues: { lastDay: registration.lastDay },
    labels: { lastDay: 'Last day of access' },
    send: async ({ lastDay }) => {
      const changed = await changeRegistration(registration.id, 'last-day', { lastDay });
      onChanged();
      return `Access now ends on ${formatShortDate(changed.lastDay)}.`;
    },
  });
  return (
    <AdminFormView form={form} submit="Change the last day">
      <TextField form={form} name="lastDay" type="date" hint="From today on, and not before access starts." required />
    </AdminFormView>
  );
}

const revokeSchema = z.object({ reason: requiredText('Say why access is withdrawn') });

function RevokeForm({ registration, onChanged }: { registration: Learner; onChanged: Changed }) {
  const form = useAdminForm({
    schema: revokeSchema,
    defaultValues: { reason: '' },
    labels: { reason: 'Reason for withdrawing' },
    clearWhenSent: true,
    send: async ({ reason }) => {
      await changeRegistration(registration.id, 'revoke', { reason });
      onChanged();
      return 'Access withdrawn.';
    },
  });
  return (
    <AdminFormView
      form={form}
      actions={
        <ConfirmStep ask="Withdraw access…" confirm="Yes, withdraw it" keep="No, keep it" busy={form.sending} ready={form.check} closeOn={form.sent}>
          <p>{`Close ${registration.courseTitle} to ${registration.email} now? Their progress is kept.`}</p>
        </ConfirmStep>
      }
    >
      <TextField form={form} name="reason" multiline hint="The audit log keeps it." required />
    </AdminFormView>
  );
}

function RestoreButton({ registration, onChanged }: { registration: Learner; onChanged: Changed }) {
  const restoring = useCommand();
  return (
    <p>
      <button
        type="button"
        className="button"
        disabled={restoring.busy}
        onClick={() =>
          void restoring.run(async () => {
            await changeRegistration(registration.id, 'restore');
            onChanged();
            return 'Access given back.';
          })
        }
      >
        Give access back
      </button>{' '}
      <span role="status">{restoring.done}</span>
      {restoring.error && <span role="alert" className="field-error">{restoring.error}</span>}
    </p>
  );
}

/** The changes to one of `registrations`, chosen from a list when there are several. */
export function AccessChanges({ registrations, onChanged }: { registrations: Learner[]; onChanged: Changed }) {
  const id = useId();
  const [chosenId, setChosenId] = useState('');
  const chosen = registrations.find((r) => r.id === chosenId) ?? registrations[0];
  if (!chosen) return null;
  return (
    <section className="action-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Change access</h3>
      {registrations.length > 1 && (
        <div className="field">
          <label htmlFor={id}>Registration</label>
          <select id={id} value={chosen.id} onChange={(event) => setChosenId(event.target.value)}>
            {registrations.map((r) => (
              <option key={r.id} value={r.id}>{`${r.name || r.email}, ${r.courseTitle} (${accessLabel(r.access)})`}</option>
            ))}
          </select>
        </div>
      )}
      <p>{`${chosen.name || chosen.email}, ${chosen.courseTitle}: ${accessLabel(chosen.access)}.`}</p>
      <div key={chosen.id} className="action-grid">
        <LastDayForm registration={chosen} onChanged={onChanged} />
        {chosen.access.state === 'revoked' ? (
          <RestoreButton registration={chosen} onChanged={onChanged} />
        ) : (
          <RevokeForm registration={chosen} onChanged={onChanged} />
        )}
      </div>
    </section>
  );
}

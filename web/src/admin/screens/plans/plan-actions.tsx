import { useId } from 'react';
import { z } from 'zod';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { AdminFormView } from '../../components/admin-form';
import { CommandStatus } from '../../components/command-status';
import { ConfirmStep } from '../../components/confirm-step';
import { ChoiceField, TextField } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import { useCommand } from '../../components/use-command';
import { adminPost, adminPut, apiPath } from '../../lib/admin-api';
import type { PlanAnswer, PlanRow } from '../../lib/api-types';
import { date, requiredText } from '../../lib/form-rules';

// What staff with the money permission do to a plan (decision 036): pause
// it (nothing is charged until resumed), resume it, cancel it after a
// confirming step, and move a part still to pay to another day. Each
// answers the plan as it is now, which replaces the one shown.

export interface PlanActionProps {
  row: PlanRow;
  onUpdated: (row: PlanRow) => void;
}

type Command = 'pause' | 'resume' | 'cancel';

const DONE: Record<Command, string> = {
  pause: 'Plan paused: nothing is charged until it is resumed.',
  resume: 'Plan resumed: each instalment is charged on its day, one whose day passed at the next run.',
  cancel: 'Plan cancelled: no instalment still to pay is charged. The balance is still owed.',
};

/** Parts that may move: not paid, cancelled or being charged. */
const movable = (row: PlanRow) => row.plan.parts.filter((part) => part.status === 'scheduled' || part.status === 'retrying' || part.status === 'failed');

export function PlanActions({ row, onUpdated }: PlanActionProps) {
  const command = useCommand();
  const { plan, reference } = row;
  const live = plan.status === 'active' || plan.status === 'paused';
  const left = movable(row).reduce((sum, part) => sum + part.amount, 0);
  const send = (action: Command) =>
    void command.run(async () => {
      onUpdated((await adminPost<PlanAnswer>(apiPath('plans', plan.id, action))).plan);
      return DONE[action];
    });
  return (
    <>
      {live && (
        <div className="button-row">
          {plan.status === 'active' ? (
            <button type="button" className="button button-secondary" disabled={command.busy} onClick={() => send('pause')}>
              Pause the plan{' '}<span className="visually-hidden">{`of ${reference}`}</span>
            </button>
          ) : (
            <button type="button" className="button" disabled={command.busy} onClick={() => send('resume')}>
              Resume the plan{' '}<span className="visually-hidden">{`of ${reference}`}</span>
            </button>
          )}
          <ConfirmStep
            ask="Cancel the plan…"
            askLabel={`Cancel the plan of ${reference}…`}
            confirm="Yes, cancel the plan"
            keep="No, keep it"
            busy={command.busy}
            onConfirm={() => send('cancel')}
          >
            <p>{`No instalment still to pay is charged${plan.card ? ` to the ${plan.card}` : ''}. The booking stays, and ${formatMoney(left)} of its balance is still owed, paid another way.`}</p>
            <p>A cancelled plan cannot be started again.</p>
          </ConfirmStep>
        </div>
      )}
      <CommandStatus command={command} />
      {live && movable(row).length > 0 && <MovePartForm row={row} onUpdated={onUpdated} />}
    </>
  );
}

const moveSchema = z.object({ number: requiredText('Choose the instalment to move'), dueOn: date('Enter the new date') });

function MovePartForm({ row, onUpdated }: PlanActionProps) {
  const id = useId();
  const parts = movable(row);
  const form = useAdminForm({
    schema: moveSchema,
    defaultValues: { number: parts.length === 1 ? String(parts[0]?.number) : '', dueOn: '' },
    labels: { number: 'Instalment', dueOn: 'New date' },
    send: async ({ number, dueOn }) => {
      onUpdated((await adminPut<PlanAnswer>(apiPath('plans', row.plan.id, 'instalments', number), { dueOn })).plan);
      return `Instalment ${number} moved to ${formatShortDate(dueOn)}.`;
    },
  });
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>
        Move an instalment<span className="visually-hidden">{` of ${row.reference}`}</span>
      </h3>
      <AdminFormView form={form} submit="Move the instalment">
        <ChoiceField
          form={form}
          name="number"
          choices={parts.map((part) => ({ value: String(part.number), label: `${part.number}: ${formatMoney(part.amount)} on ${formatShortDate(part.dueOn)}` }))}
          none="Please choose"
          required
        />
        <TextField form={form} name="dueOn" type="date" hint="From tomorrow, between the instalments before and after it, and no later than the day the balance is due" required />
      </AdminFormView>
    </section>
  );
}

import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { formatMoney } from '../../../lib/money';
import { AdminFormView } from '../../components/admin-form';
import { ConfirmStep } from '../../components/confirm-step';
import { CheckboxesField, TextField } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPost, apiPath } from '../../lib/admin-api';
import type { OnlineOrder } from '../../lib/api-types';
import { requiredText } from '../../lib/form-rules';

// An online order given back line by line (decision 027): a course, an
// add-on, or all of it; each line once. The access a line gave ends when
// the refund is made, which the confirmation says before it is done.

const schema = z.object({
  lines: z.array(z.string()).min(1, 'Choose what to refund'),
  reason: requiredText('Say why the money is refunded'),
});

export function RefundLinesForm({ order, onUpdated }: { order: OnlineOrder; onUpdated: (order: OnlineOrder) => void }) {
  const open = order.lines.filter((line) => !line.refunded);
  const form = useAdminForm({
    schema,
    defaultValues: { lines: [] as string[], reason: '' },
    labels: { lines: 'What to refund', reason: 'Reason' },
    clearWhenSent: true,
    send: async ({ lines, reason }) => {
      const body = { lines: lines.map(Number), reason };
      const answer = await adminPost<{ order: OnlineOrder }>(apiPath('online-orders', order.id, 'refund'), body);
      onUpdated(answer.order);
      return 'Refund recorded; the access it bought has ended.';
    },
  });
  const ticked = useWatch({ control: form.form.control, name: 'lines' }) ?? [];
  const chosen = open.filter((line) => ticked.includes(String(line.index)));
  const amount = chosen.reduce((sum, line) => sum + line.amount, 0);
  if (open.length === 0) return <p>Every line of this order has been refunded.</p>;
  return (
    <AdminFormView
      form={form}
      actions={
        <ConfirmStep ask="Refund…" confirm="Yes, refund" keep="No, not now" busy={form.sending} ready={form.check} closeOn={form.sent}>
          <p>{`Refund ${formatMoney(amount)} the way it was paid, and end access to ${chosen.map((line) => line.title).join(' and ')} now?`}</p>
        </ConfirmStep>
      }
    >
      <CheckboxesField
        form={form}
        name="lines"
        choices={open.map((line) => ({ value: String(line.index), label: `${line.title}, ${formatMoney(line.amount)}` }))}
        hint={`Up to what is paid: ${formatMoney(order.paid)}`}
        required
      />
      <TextField form={form} name="reason" multiline hint="The credit note shows it to the student; the audit log keeps it." required />
    </AdminFormView>
  );
}

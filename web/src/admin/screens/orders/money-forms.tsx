import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { formatMoney } from '../../../lib/money';
import { AdminFormView } from '../../components/admin-form';
import { ConfirmStep } from '../../components/confirm-step';
import { RadioField, TextField } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import type { OfflineMethod, Refund } from '../../lib/api-types';
import { choicesOf, OFFLINE_METHOD_LABELS } from '../../lib/labels';
import { date, oneOf, penceFromPounds, pounds, requiredText } from '../../lib/form-rules';
import { orderAction, type OrderActionProps } from './order-path';

// The order page's money forms (decision 017): a refund of any amount up to
// what was paid, a payment taken off the site, and a new balance deadline.
// Amounts are typed in pounds and sent in pence; each answers the order.

const refundSchema = z.object({ amount: pounds('Enter the amount to refund', 1), reason: requiredText('Say why the money is refunded') });

export function RefundForm({ order, onUpdated }: OrderActionProps) {
  const form = useAdminForm({
    schema: refundSchema,
    defaultValues: { amount: '', reason: '' },
    labels: { amount: 'Amount to refund (£)', reason: 'Reason' },
    clearWhenSent: true,
    send: async (refund) => {
      onUpdated(await orderAction(order.id, ['refund'], refund));
      return `Refund of ${formatMoney(refund.amount)} recorded.`;
    },
  });
  // Money going back asks first, naming the amount the form holds.
  const amount = penceFromPounds(useWatch({ control: form.form.control, name: 'amount' }) ?? '') ?? 0;
  return (
    <AdminFormView
      form={form}
      actions={
        <ConfirmStep ask="Refund…" confirm="Yes, refund" keep="No, not now" busy={form.sending} ready={form.check} closeOn={form.sent}>
          <p>{`Refund ${formatMoney(amount)} the way it was paid?`}</p>
        </ConfirmStep>
      }
    >
      <TextField form={form} name="amount" inputMode="decimal" hint={`Up to what was paid: ${formatMoney(order.paid)}`} required />
      <TextField form={form} name="reason" multiline hint="The credit note shows it to the student; the audit log keeps it." required />
    </AdminFormView>
  );
}

const METHODS: readonly [OfflineMethod, ...OfflineMethod[]] = ['bank_transfer', 'card_by_phone', 'cash'];

const paymentSchema = z.object({
  amount: pounds('Enter the amount paid', 1),
  method: oneOf(METHODS, 'Choose how it was paid'),
  reference: z.string().trim(),
});

export function PaymentForm({ order, onUpdated }: OrderActionProps) {
  const form = useAdminForm({
    schema: paymentSchema,
    defaultValues: { amount: '', method: '', reference: '' },
    labels: { amount: 'Amount paid (£)', method: 'How it was paid', reference: 'Reference' },
    clearWhenSent: true,
    send: async (payment) => {
      onUpdated(await orderAction(order.id, ['payments'], payment));
      return `Payment of ${formatMoney(payment.amount)} recorded.`;
    },
  });
  return (
    <AdminFormView form={form} submit="Record the payment">
      <TextField form={form} name="amount" inputMode="decimal" hint={order.balance > 0 ? `Balance to pay: ${formatMoney(order.balance)}` : undefined} required />
      <RadioField form={form} name="method" choices={choicesOf(OFFLINE_METHOD_LABELS)} required />
      <TextField form={form} name="reference" hint="The bank reference or receipt number, if there is one" />
    </AdminFormView>
  );
}

const deadlineSchema = z.object({ balanceDueOn: date('Enter the new date') });

export function DeadlineForm({ order, onUpdated }: OrderActionProps) {
  const form = useAdminForm({
    schema: deadlineSchema,
    defaultValues: { balanceDueOn: order.balanceDueOn ?? '' },
    labels: { balanceDueOn: 'Balance due on' },
    send: async (deadline) => {
      onUpdated(await orderAction(order.id, ['deadline'], deadline));
      return 'Balance deadline changed.';
    },
  });
  return (
    <AdminFormView form={form} submit="Change the deadline">
      <TextField form={form} name="balanceDueOn" type="date" hint={`Balance to pay: ${formatMoney(order.balance)}`} required />
    </AdminFormView>
  );
}

const handRefundSchema = z.object({ reference: requiredText('Say how the money was paid back') });

/**
 * A refund of money taken by hand, which the payment provider cannot give
 * back: once a person has paid it back (a bank transfer, say), they record
 * it here, and the credit note and the student's mail follow.
 */
export function HandRefundForm({ order, refund, onUpdated }: OrderActionProps & { refund: Refund }) {
  const form = useAdminForm({
    schema: handRefundSchema,
    defaultValues: { reference: '' },
    labels: { reference: `How the ${formatMoney(refund.amount)} was paid back` },
    send: async (made) => {
      onUpdated(await orderAction(order.id, ['refunds', refund.id, 'made'], made));
      return `Refund of ${formatMoney(refund.amount)} recorded as paid back.`;
    },
  });
  return (
    <AdminFormView form={form} submit="Record as paid back" className="admin-form inline-form">
      <TextField form={form} name="reference" hint="Like the bank transfer's reference" required />
    </AdminFormView>
  );
}

import { useEffect } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { sessionTypeLabel } from '../../../lib/sessions';
import { AdminFormView } from '../../components/admin-form';
import { ConfirmStep } from '../../components/confirm-step';
import { FormDone } from '../../components/error-summary';
import { ChoiceField, RadioField } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import { withQuery } from '../../lib/admin-api';
import type { Session } from '../../lib/api-types';
import { oneOf, requiredText } from '../../lib/form-rules';
import { seatsFree, sessionWhen } from '../../lib/labels';
import { useAdminData } from '../../lib/use-admin-data';
import { orderAction, type OrderActionProps } from './order-path';

// Changing an order's bookings (decision 017), through the same domain
// functions as the student's own, with staff's overrides: a move to another
// session of the same course, whatever the 14-day limit, and a cancellation
// with the refund the booking terms give, a full one, or none.

const moveSchema = z
  .object({ fromSessionId: requiredText('Choose the booking to move'), toSessionId: requiredText('Choose the new session') })
  .refine(({ fromSessionId, toSessionId }) => fromSessionId !== toSessionId, { path: ['toSessionId'], error: 'Choose another session' });

export function MoveLineForm({ order, onUpdated }: OrderActionProps) {
  const booked = order.lines.filter((line) => line.sessionId !== null);
  const form = useAdminForm({
    schema: moveSchema,
    defaultValues: { fromSessionId: booked.length === 1 ? (booked[0]?.sessionId ?? '') : '', toSessionId: '' },
    labels: { fromSessionId: 'Booking to move', toSessionId: 'Move to' },
    send: async (move) => {
      onUpdated(await orderAction(order.id, ['move'], move));
      return 'Booking moved. The student is emailed the new date.';
    },
  });
  const from = useWatch({ control: form.form.control, name: 'fromSessionId' });
  const line = booked.find((candidate) => candidate.sessionId === from);
  // Another booking's course has other sessions: the one chosen before no longer applies.
  const { resetField } = form.form;
  useEffect(() => resetField('toSessionId'), [from, resetField]);
  const sessions = useAdminData<{ sessions: Session[] }>(line ? withQuery('/api/admin/sessions', { course: line.courseId }) : null);
  const choices = sessions.data?.sessions
    .filter((session) => session.id !== from && session.status !== 'cancelled')
    .map((session) => ({ value: session.id, label: `${sessionWhen(session)} · ${sessionTypeLabel(session.type)} · ${seatsFree(session)} seats free` }));

  if (booked.length === 0) return <p>No booking on this order has a session to move.</p>;
  return (
    <AdminFormView form={form} submit="Move the booking">
      <ChoiceField
        form={form}
        name="fromSessionId"
        choices={booked.map((booking) => ({ value: booking.sessionId ?? '', label: `${booking.title}, ${booking.date ? formatShortDate(booking.date) : 'no date'}` }))}
        none="Please choose"
        required
      />
      <ChoiceField
        form={form}
        name="toSessionId"
        choices={choices ?? []}
        none={!line ? 'Choose the booking first' : choices ? 'Please choose' : 'Loading the sessions…'}
        hint="Staff may move a booking to a full session or after the 14-day limit; the server says if it cannot."
        required
      />
    </AdminFormView>
  );
}

type RefundTerms = 'terms' | 'full' | 'none';
const TERMS: readonly [RefundTerms, ...RefundTerms[]] = ['terms', 'full', 'none'];
const cancelSchema = z.object({ refund: oneOf(TERMS, 'Choose what is refunded') });

export function CancelOrderForm({ order, onUpdated }: OrderActionProps) {
  const form = useAdminForm({
    schema: cancelSchema,
    defaultValues: { refund: 'terms' },
    labels: { refund: 'Refund' },
    send: async (cancellation) => {
      onUpdated(await orderAction(order.id, ['cancel'], cancellation));
      return 'Order cancelled. The student is emailed.';
    },
  });
  const refund = useWatch({ control: form.form.control, name: 'refund' });
  const refundChoices = [
    { value: 'terms', label: 'What the booking terms allow' },
    { value: 'full', label: `A full refund of what was paid (${formatMoney(order.paid)})` },
    { value: 'none', label: 'No refund' },
  ];
  // The section stays once the order is cancelled, so what was done is still said.
  if (order.status === 'cancelled') {
    return (
      <>
        <p>This order is cancelled.</p>
        <FormDone text={form.done} />
      </>
    );
  }
  return (
    <AdminFormView
      form={form}
      actions={
        <ConfirmStep ask="Cancel the order…" confirm="Yes, cancel the order" keep="No, keep it" busy={form.sending}>
          <p>{`Every booking on this order is cancelled and its seats go back on sale. ${order.name} is emailed.`}</p>
          <p>{`Refund: ${refundChoices.find((choice) => choice.value === refund)?.label ?? ''}.`}</p>
        </ConfirmStep>
      }
    >
      <RadioField form={form} name="refund" choices={refundChoices} required />
    </AdminFormView>
  );
}

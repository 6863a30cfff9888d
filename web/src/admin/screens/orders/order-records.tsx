import { useMemo } from 'react';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { paymentMethodLabel } from '../../../lib/payment-methods';
import { sessionTypeLabel } from '../../../lib/sessions';
import { columnsOf, DataTable } from '../../components/data-table';
import { useCommand } from '../../components/use-command';
import type { Mail, Order, OrderLine, Payment, Refund } from '../../lib/api-types';
import { formatInstant, labelOf, OFFLINE_METHOD_LABELS } from '../../lib/labels';
import { HandRefundForm } from './money-forms';
import { orderAction } from './order-path';

// What an order holds (decision 017): its lines, payments, refunds, seat
// holds and mails, as tables; a mail can be sent again, and a refund of
// money taken by hand recorded as paid back.

const line = columnsOf<OrderLine>();
const lineColumns = line.columns([
  line.accessor('title', { header: 'Course' }),
  line.accessor('date', { header: 'Session', cell: (info) => (info.getValue() ? formatShortDate(info.getValue() ?? '') : 'Online, no date') }),
  line.accessor('type', { header: 'Type', cell: (info) => (info.getValue() ? sessionTypeLabel(info.getValue() ?? 'onsite') : '') }),
  line.accessor('kit', { header: 'Kit', cell: (info) => info.getValue() ?? 'None' }),
  line.accessor('amount', { header: 'Amount', cell: (info) => formatMoney(info.getValue()) }),
]);

const payment = columnsOf<Payment>();
const paymentColumns = payment.columns([
  payment.accessor('createdAt', { header: 'When', cell: (info) => formatInstant(info.getValue()) }),
  payment.accessor('amount', { header: 'Amount', cell: (info) => formatMoney(info.getValue()) }),
  payment.accessor('method', { header: 'Method', cell: (info) => methodLabel(info.getValue()) }),
  payment.accessor('status', { header: 'Status' }),
  payment.accessor('reference', { header: 'Reference', cell: (info) => info.getValue() || '—' }),
]);

/** A payment taken by staff by its offline method, one made online as the student's account says it. */
function methodLabel(method: string): string {
  return Object.hasOwn(OFFLINE_METHOD_LABELS, method) ? labelOf(OFFLINE_METHOD_LABELS, method) : paymentMethodLabel(method);
}

const refund = columnsOf<Refund>();
const refundColumns = refund.columns([
  refund.accessor('createdAt', { header: 'When', cell: (info) => formatInstant(info.getValue()) }),
  refund.accessor('amount', { header: 'Amount', cell: (info) => formatMoney(info.getValue()) }),
  refund.accessor('status', { header: 'Status' }),
  refund.accessor('reason', { header: 'Reason', enableSorting: false }),
]);

function ResendButton({ orderId, mail, onUpdated }: { orderId: string; mail: Mail; onUpdated: (order: Order) => void }) {
  const resending = useCommand();
  return (
    <>
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={resending.busy}
        onClick={() =>
          void resending.run(async () => {
            onUpdated(await orderAction(orderId, ['mails', mail.id, 'resend']));
            return `Sent again to ${mail.to}.`;
          })
        }
      >
        Resend{' '}<span className="visually-hidden">{`“${mail.subject}”`}</span>
      </button>
      <span role="status">{resending.done}</span>
      {resending.error && <span role="alert" className="field-error">{resending.error}</span>}
    </>
  );
}

const mail = columnsOf<Mail>();

function MailsTable({ order, onUpdated }: { order: Order; onUpdated: (order: Order) => void }) {
  const orderId = order.id;
  const columns = useMemo(
    () =>
      mail.columns([
        mail.accessor('subject', { header: 'Subject' }),
        mail.accessor('to', { header: 'To' }),
        mail.accessor('createdAt', { header: 'Written', cell: (info) => formatInstant(info.getValue()) }),
        mail.accessor('sentAt', { header: 'Sent', cell: (info) => (info.getValue() ? formatInstant(info.getValue() ?? '') : 'Not yet') }),
        mail.display({ id: 'resend', header: 'Send again', cell: (info) => <ResendButton orderId={orderId} mail={info.row.original} onUpdated={onUpdated} /> }),
      ]),
    [orderId, onUpdated],
  );
  return <DataTable caption="Mails" columns={columns} rows={order.mails} rowId={(sent) => sent.id} empty="No mails sent for this order." initialSort={[{ id: 'createdAt', desc: true }]} />;
}

export function OrderRecords({ order, onUpdated }: { order: Order; onUpdated: (order: Order) => void }) {
  return (
    <>
      <h2>Payments</h2>
      <DataTable caption="Payments" columns={paymentColumns} rows={order.payments} rowId={(paid) => paid.id} empty="No payments yet." initialSort={[{ id: 'createdAt', desc: false }]} />
      <h2>Refunds</h2>
      <DataTable caption="Refunds" columns={refundColumns} rows={order.refunds} rowId={(given) => given.id} empty="No refunds." initialSort={[{ id: 'createdAt', desc: false }]} />
      {order.refunds
        .filter((given) => given.byHand && given.status === 'pending')
        .map((given) => (
          <HandRefundForm key={given.id} order={order} refund={given} onUpdated={onUpdated} />
        ))}
      <h2>Seats held</h2>
      {order.holds.length === 0 ? (
        <p className="empty">No seats held.</p>
      ) : (
        <ul>
          {order.holds.map((hold) => (
            <li key={hold.sessionId}>{`Session ${hold.sessionId}, held until ${formatInstant(hold.expiresAt)}`}</li>
          ))}
        </ul>
      )}
      <h2>Mails</h2>
      <MailsTable order={order} onUpdated={onUpdated} />
      <h2>Agreed at checkout</h2>
      {order.agreed.length === 0 ? (
        <p className="empty">Nothing recorded: the order was made before checkout terms were kept.</p>
      ) : (
        <ul>
          {order.agreed.map((consent) => (
            <li key={`${consent.kind} ${consent.courseId ?? ''}`}>
              {`“${consent.wording}” Agreed ${formatInstant(consent.agreedAt)}, wording of ${consent.version}.`}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function OrderLines({ order }: { order: Order }) {
  return <DataTable caption="What was booked" columns={lineColumns} rows={order.lines} rowId={(booked) => `${booked.courseId} ${booked.sessionId ?? ''}`} empty="No lines." />;
}

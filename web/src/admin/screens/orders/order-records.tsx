import { useCallback } from 'react';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { sessionTypeLabel } from '../../../lib/sessions';
import { columnsOf, DataTable } from '../../components/data-table';
import { MailsTable, PaymentsTable, RefundsTable } from '../../components/order-history';
import { useCommand } from '../../components/use-command';
import type { Mail, Order, OrderLine } from '../../lib/api-types';
import { formatInstant } from '../../lib/labels';
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

function MailsOf({ order, onUpdated }: { order: Order; onUpdated: (order: Order) => void }) {
  const orderId = order.id;
  const resend = useCallback((sent: Mail) => <ResendButton orderId={orderId} mail={sent} onUpdated={onUpdated} />, [orderId, onUpdated]);
  return <MailsTable mails={order.mails} resend={resend} />;
}

export function OrderRecords({ order, onUpdated }: { order: Order; onUpdated: (order: Order) => void }) {
  return (
    <>
      <h2>Payments</h2>
      <PaymentsTable payments={order.payments} />
      <h2>Refunds</h2>
      <RefundsTable refunds={order.refunds} />
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
      <MailsOf order={order} onUpdated={onUpdated} />
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

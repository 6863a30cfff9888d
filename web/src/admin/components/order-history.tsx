import { useMemo, type ReactNode } from 'react';
import { formatMoney } from '../../lib/money';
import { paymentMethodLabel } from '../../lib/payment-methods';
import type { Mail, Payment, Refund } from '../lib/api-types';
import { formatInstant, labelOf, OFFLINE_METHOD_LABELS } from '../lib/labels';
import { columnsOf, DataTable } from './data-table';

// What happened to an order's money and mail, a booking's or an online
// order's alike (decisions 017 and 027): its payments, refunds and the
// mails sent to its address, as tables.

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

export function PaymentsTable({ payments }: { payments: Payment[] }) {
  return <DataTable caption="Payments" columns={paymentColumns} rows={payments} rowId={(paid) => paid.id} empty="No payments yet." initialSort={[{ id: 'createdAt', desc: false }]} />;
}

export function RefundsTable({ refunds }: { refunds: Refund[] }) {
  return <DataTable caption="Refunds" columns={refundColumns} rows={refunds} rowId={(given) => given.id} empty="No refunds." initialSort={[{ id: 'createdAt', desc: false }]} />;
}

const mail = columnsOf<Mail>();

/** The mails sent to the order's address, newest first; `resend` is the cell that sends one again, where the order has that action. */
export function MailsTable({ mails, resend }: { mails: Mail[]; resend?: (sent: Mail) => ReactNode }) {
  const columns = useMemo(
    () =>
      mail.columns([
        mail.accessor('subject', { header: 'Subject' }),
        mail.accessor('to', { header: 'To' }),
        mail.accessor('createdAt', { header: 'Written', cell: (info) => formatInstant(info.getValue()) }),
        mail.accessor('sentAt', { header: 'Sent', cell: (info) => (info.getValue() ? formatInstant(info.getValue() ?? '') : 'Not yet') }),
        ...(resend ? [mail.display({ id: 'resend', header: 'Send again', cell: (info) => resend(info.row.original) })] : []),
      ]),
    [resend],
  );
  return <DataTable caption="Mails" columns={columns} rows={mails} rowId={(sent) => sent.id} empty="No mails sent for this order." initialSort={[{ id: 'createdAt', desc: true }]} />;
}

import { useState } from 'react';
import { useParams } from 'react-router';
import { formatMoney } from '../../../lib/money';
import { AuditTable } from '../../components/audit-table';
import { columnsOf, DataTable } from '../../components/data-table';
import { MailsTable, PaymentsTable, RefundsTable } from '../../components/order-history';
import { OrdersTabs } from '../../components/orders-tabs';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { apiPath } from '../../lib/admin-api';
import type { OnlineLine, OnlineOrder } from '../../lib/api-types';
import { formatInstant, labelOf, ONLINE_ORDER_STATUS_LABELS } from '../../lib/labels';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';
import { AccessChanges } from './access-forms';
import { RefundLinesForm } from './refund-lines-form';
import { RegistrationsTable } from './registrations-table';

// One online order (decision 027): who bought what, what is paid, the
// registrations it gave with each student's progress, and everything that
// happened to it. A refund answers the order as it is now; a change of
// access reads it again. Both are `money`'s; the server checks again.

function Summary({ order }: { order: OnlineOrder }) {
  return (
    <dl className="details">
      <dt>Reference</dt>
      <dd>{order.reference}</dd>
      <dt>Internal id</dt>
      <dd className="internal-id">{order.id}</dd>
      <dt>Status</dt>
      <dd>{labelOf(ONLINE_ORDER_STATUS_LABELS, order.status)}</dd>
      <dt>Placed</dt>
      <dd>{formatInstant(order.createdAt)}</dd>
      <dt>Paid on</dt>
      <dd>{order.paidAt ? formatInstant(order.paidAt) : 'Not paid'}</dd>
      <dt>Name</dt>
      <dd>{order.name || 'No account yet'}</dd>
      <dt>Email</dt>
      <dd>{order.email ? <a href={`mailto:${order.email}`}>{order.email}</a> : 'Not given yet'}</dd>
      <dt>Total</dt>
      <dd>{formatMoney(order.total)}</dd>
      <dt>Paid</dt>
      <dd>{formatMoney(order.paid)}</dd>
    </dl>
  );
}

const line = columnsOf<OnlineLine>();
const lineColumns = line.columns([
  line.accessor('title', { header: 'Line' }),
  line.accessor('addOn', { header: 'Kind', cell: (info) => (info.getValue() ? 'Add-on' : 'Course') }),
  line.accessor('amount', { header: 'Amount', cell: (info) => formatMoney(info.getValue()) }),
  line.accessor('refunded', { header: 'Refunded', cell: (info) => (info.getValue() ? 'Yes' : 'No') }),
]);

function OrderPage({ order, onUpdated, reload }: { order: OnlineOrder; onUpdated: (order: OnlineOrder) => void; reload: () => void }) {
  const money = can(useStaff(), 'money');
  return (
    <>
      <Summary order={order} />
      <h2>What was bought</h2>
      <DataTable caption="What was bought" columns={lineColumns} rows={order.lines} rowId={(bought) => String(bought.index)} empty="No lines." />
      {money && (order.paid > 0 || order.lines.some((bought) => bought.refunded)) && (
        <section className="action-card" aria-labelledby="refund-title">
          <h3 id="refund-title">Refund</h3>
          <RefundLinesForm order={order} onUpdated={onUpdated} />
        </section>
      )}
      <h2>Course access</h2>
      <RegistrationsTable caption="Course access it gave" registrations={order.registrations} empty="No course access yet: it is given when the order is paid." showCourse />
      {money && <AccessChanges registrations={order.registrations} onChanged={reload} />}
      <h2>Payments</h2>
      <PaymentsTable payments={order.payments} />
      <h2>Refunds</h2>
      <RefundsTable refunds={order.refunds} />
      <h2>Mails</h2>
      <MailsTable mails={order.mails} />
      <h2>Audit trail</h2>
      <AuditTable caption="Changes to this order" entries={order.audit} />
    </>
  );
}

export function OnlineOrderScreen() {
  const { id = '' } = useParams();
  const loaded = useAdminData<{ order: OnlineOrder }>(apiPath('online-orders', id));
  // The answer of the last refund, newer than the one loaded until the next load.
  const [updated, setUpdated] = useState<OnlineOrder | null>(null);
  const reload = () => {
    setUpdated(null);
    loaded.retry();
  };
  return (
    <>
      <PageHeading>{loaded.data ? `Online order ${loaded.data.order.reference}` : 'Online order'}</PageHeading>
      <OrdersTabs current="online" />
      <RequestView request={loaded} what="this order">
        {({ order }) => <OrderPage order={updated?.id === order.id ? updated : order} onUpdated={setUpdated} reload={reload} />}
      </RequestView>
    </>
  );
}

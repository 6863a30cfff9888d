import { useId, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatMoney } from '../../../lib/money';
import { AuditTable } from '../../components/audit-table';
import { PlanAttention, PlanParts, PlanSummary } from '../../components/plan-details';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { apiPath } from '../../lib/admin-api';
import type { Order } from '../../lib/api-types';
import { balanceDueLabel, formatInstant, labelOf, ORDER_STATUS_LABELS } from '../../lib/labels';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';
import { CancelOrderForm, MoveLineForm } from './booking-forms';
import { DeadlineForm, PaymentForm, RefundForm } from './money-forms';
import { OrderLines, OrderRecords } from './order-records';
import type { OrderAnswer } from './order-path';

// One order (decision 017): who, what, how much is paid and due, what staff
// can do to it, and everything that happened to it. Every action answers
// the order as it is now, which replaces the one shown. The actions show
// for the `money` permission, which each needs; the server checks again.

function OrderSummary({ order }: { order: Order }) {
  return (
    <dl className="details">
      <dt>Reference</dt>
      <dd>{order.reference}</dd>
      <dt>Internal id</dt>
      <dd className="internal-id">{order.id}</dd>
      <dt>Status</dt>
      <dd>{labelOf(ORDER_STATUS_LABELS, order.status)}</dd>
      <dt>Placed</dt>
      <dd>{formatInstant(order.createdAt)}</dd>
      <dt>Name</dt>
      <dd>{order.name}</dd>
      <dt>Email</dt>
      <dd>
        <a href={`mailto:${order.email}`}>{order.email}</a>
      </dd>
      <dt>Phone</dt>
      <dd>{order.phone}</dd>
      <dt>Payment</dt>
      <dd>{order.mode}</dd>
      <dt>Total</dt>
      <dd>{formatMoney(order.total)}</dd>
      <dt>Paid</dt>
      <dd>{formatMoney(order.paid)}</dd>
      <dt>Balance</dt>
      <dd>{order.balance > 0 ? `${formatMoney(order.balance)}${order.balanceDueOn ? `, ${balanceDueLabel(order.balanceDueOn)}` : ''}` : 'Nothing to pay'}</dd>
      <dt>Discount code</dt>
      <dd>{order.discountCode ?? 'None'}</dd>
    </dl>
  );
}

function Action({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="action-card" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

function OrderPage({ order, onUpdated }: { order: Order; onUpdated: (order: Order) => void }) {
  // Refunds, payments, moves, cancellations and deadlines are all `money`'s.
  const money = can(useStaff(), 'money');
  const live = order.status !== 'cancelled';
  return (
    <>
      <OrderSummary order={order} />
      <h2>What was booked</h2>
      <OrderLines order={order} />
      {order.plan && (
        <>
          <h2>Payment plan</h2>
          <PlanSummary plan={order.plan} />
          <PlanAttention plan={order.plan} />
          <PlanParts plan={order.plan} caption="Instalments" />
          <p>
            <Link to={`${paths.plans}#plan-${order.plan.id}`}>Pause, resume or cancel the plan, or move an instalment</Link>
          </p>
        </>
      )}
      {money && (
        <>
          <h2>Actions</h2>
          <div className="action-grid">
            <Action title="Refund">
              <RefundForm order={order} onUpdated={onUpdated} />
            </Action>
            <Action title="Record a payment">
              <PaymentForm order={order} onUpdated={onUpdated} />
            </Action>
            {live && order.balance > 0 && (
              <Action title="Balance deadline">
                <DeadlineForm order={order} onUpdated={onUpdated} />
              </Action>
            )}
            {live && (
              <Action title="Move a booking">
                <MoveLineForm order={order} onUpdated={onUpdated} />
              </Action>
            )}
            <Action title="Cancel the order">
              <CancelOrderForm order={order} onUpdated={onUpdated} />
            </Action>
          </div>
        </>
      )}
      <OrderRecords order={order} onUpdated={onUpdated} />
      <h2>Audit trail</h2>
      <AuditTable caption="Changes to this order" entries={order.audit} />
    </>
  );
}

export function OrderScreen() {
  const { id = '' } = useParams();
  const loaded = useAdminData<OrderAnswer>(apiPath('orders', id));
  // The answer of the last action on this order, newer than the one loaded.
  const [updated, setUpdated] = useState<Order | null>(null);
  return (
    <>
      <PageHeading>{loaded.data ? `Order ${loaded.data.order.reference}` : 'Order'}</PageHeading>
      <RequestView request={loaded} what="this order">
        {({ order }) => <OrderPage order={updated?.id === order.id ? updated : order} onUpdated={setUpdated} />}
      </RequestView>
    </>
  );
}

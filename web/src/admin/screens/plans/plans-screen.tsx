import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { columnsOf, DataTable } from '../../components/data-table';
import { PageHeading } from '../../components/page-heading';
import { AttentionMark, nextChargeLabel, PlanAttention, PlanParts, PlanSummary } from '../../components/plan-details';
import { RequestView, ResultCount } from '../../components/request-view';
import type { PlanRow, Plans } from '../../lib/api-types';
import { labelOf, PLAN_STATUS_LABELS } from '../../lib/labels';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';
import { PlanActions, type PlanActionProps } from './plan-actions';
import { PlanSettingsSection } from './plan-settings';

// Payment plans (decision 036): every plan, those with a part the bank
// refused first and marked; then each plan with its parts and what staff
// with the money permission may do to it; then the college's settings.

const column = columnsOf<PlanRow>();
const columns = column.columns([
  column.accessor('reference', { header: 'Booking', cell: (info) => <Link to={paths.order(info.row.original.orderId)}>{info.getValue()}</Link> }),
  column.accessor('student', { header: 'Student' }),
  column.accessor((row) => row.plan.status, {
    id: 'status',
    header: 'Status',
    cell: (info) => (
      <>
        {labelOf(PLAN_STATUS_LABELS, info.getValue())}
        {info.row.original.plan.needsAttention && <AttentionMark />}
      </>
    ),
  }),
  column.accessor((row) => row.plan.nextCharge?.on ?? '', { id: 'next', header: 'Next charge', cell: (info) => nextChargeLabel(info.row.original.plan) }),
  column.accessor((row) => row.plan.card ?? '', { id: 'card', header: 'Card', cell: (info) => info.getValue() || 'Not saved yet' }),
  column.display({
    id: 'details',
    header: 'Instalments',
    cell: (info) => (
      <a href={`#plan-${info.row.original.plan.id}`}>
        Instalments and actions{' '}<span className="visually-hidden">{`for ${info.row.original.reference}`}</span>
      </a>
    ),
  }),
]);

function PlanSection({ row, onUpdated }: PlanActionProps) {
  const money = can(useStaff(), 'money');
  const heading = `plan-${row.plan.id}-heading`;
  return (
    <section id={`plan-${row.plan.id}`} className="plan-card" aria-labelledby={heading}>
      <h2 id={heading}>{`${row.reference}: ${row.student}`}</h2>
      <p>
        <Link to={paths.order(row.orderId)}>{`Open order ${row.reference}`}</Link>
        {' · '}
        <a href={`mailto:${row.email}`}>{row.email}</a>
      </p>
      <PlanSummary plan={row.plan} />
      <PlanAttention plan={row.plan} />
      <PlanParts plan={row.plan} caption={`Instalments of ${row.reference}`} />
      {money && <PlanActions row={row} onUpdated={onUpdated} />}
    </section>
  );
}

export function PlansScreen() {
  const loaded = useAdminData<Plans>('/api/admin/plans');
  // Each plan as the last change to it answered, newer than the list loaded.
  const [updated, setUpdated] = useState<Record<string, PlanRow>>({});
  const onUpdated = (row: PlanRow) => setUpdated((shown) => ({ ...shown, [row.plan.id]: row }));
  // An order's link to its plan (`#plan-…`) lands on it once the list is shown.
  const { hash } = useLocation();
  const shown = loaded.data !== undefined;
  useEffect(() => {
    if (shown && hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [shown, hash]);
  return (
    <>
      <PageHeading>Payment plans</PageHeading>
      <p>Plans with an instalment the bank refused come first, then by their next charge.</p>
      <ResultCount count={loaded.data?.plans.length} one="plan" many="plans" />
      <RequestView request={loaded} what="the payment plans">
        {({ plans }) => {
          const rows = plans.map((row) => updated[row.plan.id] ?? row);
          return (
            <>
              <DataTable caption="Payment plans" columns={columns} rows={rows} rowId={(row) => row.plan.id} empty="No payment plans yet." />
              {rows.map((row) => (
                <PlanSection key={row.plan.id} row={row} onUpdated={onUpdated} />
              ))}
            </>
          );
        }}
      </RequestView>
      <PlanSettingsSection />
    </>
  );
}

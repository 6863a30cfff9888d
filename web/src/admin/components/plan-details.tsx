import { formatShortDate } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import type { Plan, PlanPart } from '../lib/api-types';
import { formatInstant, labelOf, PART_STATUS_LABELS, PLAN_STATUS_LABELS } from '../lib/labels';
import { columnsOf, DataTable } from './data-table';

// An instalment plan as staff read it (decision 036), on the plans screen
// and on its order alike: where it stands, the card, what is charged next,
// the parts the bank refused with its words, and every part.

/** What the job charges next: '£66.66 on 1 Jan 2027', or why nothing is. */
export function nextChargeLabel({ status, nextCharge }: Pick<Plan, 'status' | 'nextCharge'>): string {
  if (nextCharge) return `${formatMoney(nextCharge.amount)} on ${formatShortDate(nextCharge.on)}`;
  return status === 'paused' ? 'None while paused' : 'None';
}

/** The mark of a plan with a part the bank refused. */
export function AttentionMark() {
  return <span className="badge badge-attention">Needs attention</span>;
}

export function PlanSummary({ plan }: { plan: Plan }) {
  return (
    <dl className="details">
      <dt>Status</dt>
      <dd>
        {labelOf(PLAN_STATUS_LABELS, plan.status)}
        {plan.needsAttention && <AttentionMark />}
      </dd>
      <dt>Card</dt>
      <dd>{plan.card ?? 'Not saved yet'}</dd>
      <dt>Agreed</dt>
      <dd>{formatShortDate(plan.agreedOn)}</dd>
      <dt>Next charge</dt>
      <dd>{nextChargeLabel(plan)}</dd>
    </dl>
  );
}

function refusal(part: PlanPart, paused: boolean): string {
  const said = part.lastError ? ` The bank said: ${part.lastError.replace(/[.\s]*$/, '.')}` : '';
  const retry = part.status === 'retrying' && part.nextAttemptAt ? formatInstant(part.nextAttemptAt) : null;
  const next = !retry
    ? 'The card is not tried again: the student pays it from the link mailed to them, or staff record the payment.'
    : paused
      ? `The card is tried again from ${retry}, once the plan is resumed.`
      : `The card is tried again ${retry}.`;
  return `Instalment ${part.number} of ${formatMoney(part.amount)}, due ${formatShortDate(part.dueOn)}, was refused.${said} ${next}`;
}

/** Each part the bank refused, with its words and what happens next; nothing when none was. */
export function PlanAttention({ plan }: { plan: Plan }) {
  if (!plan.needsAttention) return null;
  const refused = plan.parts.filter((part) => part.status === 'retrying' || part.status === 'failed');
  return (
    <div className="attention">
      <p className="attention-title">Needs attention</p>
      <ul>
        {refused.map((part) => (
          <li key={part.number}>{refusal(part, plan.status === 'paused')}</li>
        ))}
      </ul>
    </div>
  );
}

const part = columnsOf<PlanPart>();
const partColumns = part.columns([
  part.accessor('number', { header: 'Instalment' }),
  part.accessor('dueOn', { header: 'Due', cell: (info) => formatShortDate(info.getValue()) }),
  part.accessor('amount', { header: 'Amount', cell: (info) => formatMoney(info.getValue()) }),
  part.accessor('status', { header: 'Status', cell: (info) => labelOf(PART_STATUS_LABELS, info.getValue()) }),
  part.accessor('attempts', { header: 'Charges tried' }),
  part.accessor('lastError', { header: 'Last refusal', enableSorting: false, cell: (info) => info.getValue() ?? '—' }),
  part.accessor('nextAttemptAt', { header: 'Next try', cell: (info) => (info.getValue() ? formatInstant(info.getValue() ?? '') : '—') }),
]);

export function PlanParts({ plan, caption }: { plan: Plan; caption: string }) {
  return <DataTable caption={caption} columns={partColumns} rows={plan.parts} rowId={(shown) => String(shown.number)} empty="No instalments." />;
}

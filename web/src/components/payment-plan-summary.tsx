import type { StudentPart } from '../generated/StudentPart';
import type { StudentPlan } from '../generated/StudentPlan';
import { formatShortDate } from '../lib/dates';
import { formatMoney } from '../lib/money';

// A booking's instalment plan (decision 036) as its student reads it:
// each part, its day and what became of it, and the card it is taken
// from. Paying the rest early is the booking's Pay button.

export const PLANS_QUERY = '{ payment_plans { enrollment_id status card parts { number due_on amount status } } }';

function partWords(part: StudentPart, today: string): string {
  switch (part.status) {
    case 'paid':
      return 'Paid';
    case 'charging':
      return 'Being taken';
    case 'retrying':
    case 'failed':
      return 'We could not take it: please pay it with the button below';
    case 'cancelled':
      return 'Cancelled';
    default:
      return part.due_on <= today ? 'Due today' : 'Scheduled';
  }
}

export function PaymentPlanSummary({ plan, today }: { plan: StudentPlan; today: string }) {
  const paused = plan.status === 'paused';
  return (
    <div className="account-plan">
      <table className="instalment-schedule">
        <caption>{`Your payment plan: ${plan.parts.length} monthly instalments`}</caption>
        <thead>
          <tr>
            <th scope="col">Instalment</th>
            <th scope="col">Day</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {plan.parts.map((part) => (
            <tr key={part.number}>
              <td>{part.number}</td>
              <td>{formatShortDate(part.due_on)}</td>
              <td>{formatMoney(part.amount)}</td>
              <td>{partWords(part, today)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="form-note">
        {plan.status === 'completed'
          ? 'Every instalment is paid. Thank you.'
          : paused
            ? 'The college has paused your plan: nothing is taken until it is resumed. Call us with any questions.'
            : `Each instalment is taken from your ${plan.card || 'saved card'} on its day, with no interest or fees. You can pay off the rest at any time by paying the whole balance.`}
      </p>
    </div>
  );
}

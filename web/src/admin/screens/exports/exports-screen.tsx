import { useId, useState } from 'react';
import { Field } from '../../../components/ui/field';
import { PageHeading } from '../../components/page-heading';
import { withQuery } from '../../lib/admin-api';

// Exports for the accounts (decision 017): orders, payments and refunds
// from one UK day to another, both included, as CSV files (UTF-8, a header
// row, pounds with two decimals). The links download straight from the
// API, which needs both dates; the dates only change where the links
// point, so there is nothing to send. They start at this month so far.

const EXPORTS = [
  { name: 'orders', label: 'Orders' },
  { name: 'payments', label: 'Payments' },
  { name: 'refunds', label: 'Refunds' },
] as const;

const two = (n: number) => String(n).padStart(2, '0');

/** This browser's day as `YYYY-MM-DD`, and the first of its month. */
function thisMonthSoFar(now = new Date()): { from: string; to: string } {
  const month = `${now.getFullYear()}-${two(now.getMonth() + 1)}`;
  return { from: `${month}-01`, to: `${month}-${two(now.getDate())}` };
}

function rangeProblem(from: string, to: string): string | undefined {
  if (!from || !to) return 'Choose both dates';
  return to < from ? 'Choose a date on or after the first date' : undefined;
}

export function ExportsScreen() {
  const id = useId();
  const [from, setFrom] = useState(() => thisMonthSoFar().from);
  const [to, setTo] = useState(() => thisMonthSoFar().to);
  const problem = rangeProblem(from, to);
  return (
    <>
      <PageHeading>Exports</PageHeading>
      <div className="filters">
        <Field id={`${id}-from`} label="From" type="date" value={from} error={undefined} required onChange={setFrom} />
        <Field id={`${id}-to`} label="To" type="date" value={to} error={problem} required alert onChange={setTo} />
      </div>
      {problem ? (
        <p>The downloads come back once both dates are chosen, in order.</p>
      ) : (
        <ul className="downloads">
          {EXPORTS.map(({ name, label }) => (
            <li key={name}>
              <a href={withQuery(`/api/admin/exports/${name}.csv`, { from, to })} download>
                {`${label} (CSV)`}
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

import { useId } from 'react';
import type { Instalment } from '../../generated/Instalment';
import { formatLongDate } from '../../lib/dates';
import { formatMoney } from '../../lib/money';

/**
 * How the balance is paid (decision 036): in one payment by its due day,
 * or in `choices` monthly instalments from the card that pays the booking
 * fee today, each part and its day shown before the buyer agrees.
 * `count` is the number chosen, `null` for one payment.
 */
export function InstalmentChoice({ balance, deposit, dueOn, choices, count, parts, onChange }: {
  balance: number;
  /** The booking fee paid today with the plan's card, if it is. */
  deposit: number | null;
  dueOn: string;
  choices: number[];
  count: number | null;
  parts: Instalment[];
  onChange: (count: number | null) => void;
}) {
  const id = useId();
  const most = choices[choices.length - 1] ?? 0;
  return (
    <fieldset className="instalment-choice">
      <legend>{`How would you like to pay the balance of ${formatMoney(balance)}?`}</legend>
      <div className="check-field">
        <input type="radio" id={`${id}-once`} name={`${id}-how`} checked={count === null} onChange={() => onChange(null)} />
        <label htmlFor={`${id}-once`}>{`In one payment, by ${formatLongDate(dueOn)}`}</label>
      </div>
      <div className="check-field">
        <input
          type="radio"
          id={`${id}-monthly`}
          name={`${id}-how`}
          checked={count !== null}
          onChange={() => onChange(count ?? most)}
        />
        <label htmlFor={`${id}-monthly`}>{`In ${choices[0]} to ${most} monthly instalments, interest-free`}</label>
      </div>
      {count !== null && (
        <>
          <div className="field instalment-count">
            <label htmlFor={`${id}-count`}>Number of instalments</label>
            <select id={`${id}-count`} value={count} onChange={(event) => onChange(Number(event.target.value))}>
              {choices.map((n) => <option key={n} value={n}>{`${n} monthly instalments`}</option>)}
            </select>
          </div>
          <table className="instalment-schedule">
            <caption>Your payments</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {deposit !== null && (
                <tr>
                  <td>Today</td>
                  <td>Booking fee</td>
                  <td>{formatMoney(deposit)}</td>
                </tr>
              )}
              {parts.map((part) => (
                <tr key={part.number}>
                  <td>{formatLongDate(part.dueOn)}</td>
                  <td>{`Instalment ${part.number}`}</td>
                  <td>{formatMoney(part.amount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>Total</th>
                <td>{formatMoney((deposit ?? 0) + parts.reduce((sum, part) => sum + part.amount, 0))}</td>
              </tr>
            </tfoot>
          </table>
          <p className="form-note">
            {deposit === null
              ? 'No interest and no fees. Your card is saved and each instalment is taken from it on its day, with a receipt. You can pay off the rest early at any time.'
              : 'No interest and no fees. The card you pay the booking fee with is saved and each instalment is taken from it on its day, with a receipt. You can pay off the rest early from your account at any time.'}
          </p>
        </>
      )}
    </fieldset>
  );
}

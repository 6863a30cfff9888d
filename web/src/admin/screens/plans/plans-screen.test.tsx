import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, type Answer } from '../../../test/api-stub';
import type { Plan, PlanRow } from '../../lib/api-types';
import { order, plan, planRow, staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const REFUSED: Partial<Plan> = {
  needsAttention: true,
  parts: [
    { number: 1, dueOn: '2026-12-01', amount: 6668, status: 'retrying', attempts: 1, lastError: 'Your card was declined.', nextAttemptAt: '2026-12-04T09:00:00Z' },
    { number: 2, dueOn: '2027-01-01', amount: 6666, status: 'scheduled', attempts: 0, lastError: null, nextAttemptAt: null },
  ],
  nextCharge: { number: 1, on: '2026-12-04', amount: 6668 },
};
const other: PlanRow = { ...planRow({ id: 'plan-2' }), orderId: 'ord-8', reference: 'B-K7Q2P', student: 'Ben Ali', email: 'ben@example.com' };
const settings = { maxInstalments: 6, retryDays: [3, 7] };
/** The second plan as a change to it answers. */
const answer = (changes: Partial<Plan>) => () => jsonResponse(200, { plan: { ...other, plan: plan({ id: 'plan-2', ...changes }) } });

function renderPlans(answers: Record<string, Answer> = {}, role: 'staff' | 'tutor' = 'staff') {
  return renderAdmin('/plans/', staffMember(role), {
    'GET /api/admin/plans': () => jsonResponse(200, { plans: [planRow(REFUSED), other] }),
    'GET /api/admin/plan-settings': () => jsonResponse(200, { settings }),
    ...answers,
  });
}

/** The section of the plan of booking `reference`. */
const planOf = async (reference: string) => screen.findByRole('region', { name: new RegExp(`^${reference}:`) });

describe('payment plans', () => {
  it('lists each plan with its booking, next charge and card, a refused part marked with the bank’s words', async () => {
    renderPlans();
    const table = await screen.findByRole('table', { name: 'Payment plans' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByRole('link', { name: 'B-Z20KM' })).toHaveAttribute('href', '/admin/orders/ord-7/');
    expect(within(rows[1]!).getByText('Needs attention')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('£66.68 on 4 Dec 2026')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Ben Ali')).toBeInTheDocument();
    expect(within(rows[2]!).queryByText('Needs attention')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('Visa ending 4242')).toBeInTheDocument();
    expect(screen.getByText('2 plans')).toBeInTheDocument();

    const refused = await planOf('B-Z20KM');
    expect(within(refused).getByText(/^Instalment 1 of £66\.68, due 1 Dec 2026, was refused\. The bank said: Your card was declined\. The card is tried again/)).toBeInTheDocument();
    const parts = within(refused).getByRole('table', { name: 'Instalments of B-Z20KM' });
    expect(within(parts).getByText('Refused, to be tried again')).toBeInTheDocument();
    expect(within(parts).getByText('1 Jan 2027')).toBeInTheDocument();
  });

  it('pauses a plan and shows it as the server answers, then resumes it', async () => {
    const api = renderPlans({
      'POST /api/admin/plans/plan-2/pause': answer({ status: 'paused', nextCharge: null }),
      'POST /api/admin/plans/plan-2/resume': answer({}),
    });
    const section = await planOf('B-K7Q2P');
    await userEvent.click(within(section).getByRole('button', { name: 'Pause the plan of B-K7Q2P' }));
    expect(await within(section).findByText('Plan paused: nothing is charged until it is resumed.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/plans/plan-2/pause')).toHaveLength(1);
    expect(within(section).getByText('Paused')).toBeInTheDocument();
    expect(within(section).getByText('None while paused')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Resume the plan of B-K7Q2P' }));
    expect(await within(section).findByText(/^Plan resumed/)).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/plans/plan-2/resume')).toHaveLength(1);
  });

  it('cancels a plan only once confirmed', async () => {
    const api = renderPlans({ 'POST /api/admin/plans/plan-2/cancel': answer({ status: 'cancelled', nextCharge: null }) });
    const section = await planOf('B-K7Q2P');
    await userEvent.click(within(section).getByRole('button', { name: 'Cancel the plan of B-K7Q2P…' }));
    expect(callsTo(api, 'POST /api/admin/plans/plan-2/cancel'), 'nothing is sent before it is confirmed').toEqual([]);
    expect(within(section).getByRole('group')).toHaveTextContent('No instalment still to pay is charged to the Visa ending 4242. The booking stays, and £133.32 of its balance is still owed');
    await userEvent.click(within(section).getByRole('button', { name: 'Yes, cancel the plan' }));
    expect(await within(section).findByText(/^Plan cancelled/)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: /Pause the plan/ })).not.toBeInTheDocument();
  });

  it('moves an instalment to a day, and says why the server refused one', async () => {
    const api = renderPlans({
      'PUT /api/admin/plans/plan-2/instalments/3': () =>
        jsonResponse(422, { error: { code: 'unprocessable', message: 'Choose a day from Monday 1 February 2027 to Monday 1 March 2027, so the instalments stay in order and end by the day the balance is due.' } }),
      'PUT /api/admin/plans/plan-2/instalments/2': answer({}),
    });
    const section = await planOf('B-K7Q2P');
    await userEvent.click(within(section).getByRole('button', { name: 'Move the instalment' }));
    expect(await within(section).findAllByText('Choose the instalment to move')).not.toHaveLength(0);
    await userEvent.selectOptions(within(section).getByRole('combobox', { name: 'Instalment' }), '3: £66.66 on 1 Feb 2027');
    await userEvent.type(within(section).getByLabelText(/New date/), '2027-03-10');
    await userEvent.click(within(section).getByRole('button', { name: 'Move the instalment' }));
    expect(await within(section).findByText(/to Monday 1 March 2027, so the instalments stay in order/)).toBeInTheDocument();
    expect(callsTo(api, 'PUT /api/admin/plans/plan-2/instalments/3')[0]?.body).toEqual({ dueOn: '2027-03-10' });

    await userEvent.selectOptions(within(section).getByRole('combobox', { name: 'Instalment' }), '2: £66.66 on 1 Jan 2027');
    await userEvent.clear(within(section).getByLabelText(/New date/));
    await userEvent.type(within(section).getByLabelText(/New date/), '2027-01-20');
    await userEvent.click(within(section).getByRole('button', { name: 'Move the instalment' }));
    expect(await within(section).findByText('Instalment 2 moved to 20 Jan 2027.')).toBeInTheDocument();
  });

  it('saves the settings checked, and shows the server’s refusal in the summary', async () => {
    let refuse = true;
    const api = renderPlans({
      'PUT /api/admin/plan-settings': (body) =>
        refuse ? jsonResponse(422, { error: { code: 'unprocessable', message: 'A plan may have 2 to 12 instalments.' } }) : jsonResponse(200, { settings: body }),
    });
    const days = await screen.findByLabelText(/Try a refused card again after/);
    expect(days).toHaveValue('3, 7');
    await userEvent.clear(days);
    await userEvent.type(days, '3, 40');
    await userEvent.click(screen.getByRole('button', { name: 'Save the settings' }));
    expect(await screen.findAllByText(/Enter up to 5 numbers of days, each 1 to 28/)).not.toHaveLength(0);
    expect(callsTo(api, 'PUT /api/admin/plan-settings')).toEqual([]);

    await userEvent.clear(days);
    await userEvent.type(days, '2, 5,9');
    await userEvent.selectOptions(screen.getByLabelText(/Most instalments/), '4 instalments');
    await userEvent.click(screen.getByRole('button', { name: 'Save the settings' }));
    expect(await screen.findByText('A plan may have 2 to 12 instalments.')).toBeInTheDocument();
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Save the settings' }));
    expect(await screen.findByText(/^Settings saved\./)).toBeInTheDocument();
    expect(callsTo(api, 'PUT /api/admin/plan-settings')[1]?.body).toEqual({ maxInstalments: 4, retryDays: [2, 5, 9] });
  });

  it('is not in the nav of a role without the orders permission', async () => {
    renderPlans({}, 'tutor');
    expect(await screen.findByRole('navigation', { name: 'Back office' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Payment plans' })).not.toBeInTheDocument();
  });
});

describe('an order with a plan', () => {
  it('shows the plan, its instalments and where to change it', async () => {
    renderAdmin('/orders/ord-7/', staffMember('staff'), { 'GET /api/admin/orders/ord-7': () => jsonResponse(200, { order: order({ plan: plan() }) }) });
    expect(await screen.findByRole('heading', { name: 'Payment plan' })).toBeInTheDocument();
    expect(screen.getByText('£66.66 on 1 Jan 2027')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Instalments' })).getAllByRole('row')).toHaveLength(4);
    expect(screen.getByRole('link', { name: /Pause, resume or cancel the plan/ })).toHaveAttribute('href', '/admin/plans/#plan-plan-1');
  });
});

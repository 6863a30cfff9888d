import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PaymentPlanSummary } from './payment-plan-summary';

const plan = {
  enrollment_id: 'order-1',
  status: 'active',
  card: 'Visa ending 4242',
  parts: [
    { number: 1, due_on: '2026-12-26', amount: 63168, status: 'paid' },
    { number: 2, due_on: '2027-01-26', amount: 63166, status: 'retrying' },
    { number: 3, due_on: '2027-02-26', amount: 63166, status: 'scheduled' },
  ],
};

describe('PaymentPlanSummary', () => {
  it('lists each instalment, its day, amount and what became of it, and the card it is taken from', () => {
    render(<PaymentPlanSummary plan={plan} today="2027-01-27" />);
    const table = screen.getByRole('table', { name: 'Your payment plan: 3 monthly instalments' });
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
      '126 Dec 2026£631.68Paid',
      '226 Jan 2027£631.66We could not take it: please pay it with the button below',
      '326 Feb 2027£631.66Scheduled',
    ]);
    expect(screen.getByText(/taken from your Visa ending 4242 on its day/)).toBeInTheDocument();
  });

  it('says when the college paused it, and when it is all paid', () => {
    const { unmount } = render(<PaymentPlanSummary plan={{ ...plan, status: 'paused' }} today="2027-01-27" />);
    expect(screen.getByText(/The college has paused your plan/)).toBeInTheDocument();
    unmount();
    render(<PaymentPlanSummary plan={{ ...plan, status: 'completed' }} today="2027-03-01" />);
    expect(screen.getByText('Every instalment is paid. Thank you.')).toBeInTheDocument();
  });
});

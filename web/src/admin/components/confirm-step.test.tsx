import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useWatch } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { formatMoney } from '../../lib/money';
import { penceFromPounds, pounds, requiredText } from '../lib/form-rules';
import { AdminFormView } from './admin-form';
import { ConfirmStep } from './confirm-step';
import { TextField } from './form-fields';
import { useAdminForm } from './use-admin-form';

// A form whose confirmation names what it holds, as the order page's refund
// does: the step opens only on fields the form accepts, says the amount
// typed, and closes once sent, for the next one.

const schema = z.object({ amount: pounds('Enter the amount to refund', 1), reason: requiredText('Say why the money is refunded') });

function Refund({ send }: { send: (refund: { amount: number; reason: string }) => Promise<void> }) {
  const form = useAdminForm({
    schema,
    defaultValues: { amount: '', reason: '' },
    labels: { amount: 'Amount to refund (£)', reason: 'Reason' },
    clearWhenSent: true,
    send: async (refund) => {
      await send(refund);
      return `Refund of ${formatMoney(refund.amount)} recorded.`;
    },
  });
  const amount = penceFromPounds(useWatch({ control: form.form.control, name: 'amount' })) ?? 0;
  return (
    <AdminFormView
      form={form}
      actions={
        <ConfirmStep ask="Refund…" confirm="Yes, refund" keep="No, not now" busy={form.sending} ready={form.check} closeOn={form.sent}>
          <p>{`Refund ${formatMoney(amount)} to the card?`}</p>
        </ConfirmStep>
      }
    >
      <TextField form={form} name="amount" inputMode="decimal" required />
      <TextField form={form} name="reason" multiline required />
    </AdminFormView>
  );
}

describe('a confirmation step that names an amount', () => {
  it('opens only on fields the form accepts, with the summary taking the focus otherwise', async () => {
    const send = vi.fn(() => Promise.resolve());
    render(<Refund send={send} />);
    await userEvent.type(screen.getByLabelText(/Amount to refund/), 'fifty');
    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    const summary = await screen.findByText('There is a problem');
    await vi.waitFor(() => expect(document.activeElement?.contains(summary)).toBe(true));
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(send).not.toHaveBeenCalled();
  });

  it('asks with the amount typed, sends once confirmed, and closes for the next refund', async () => {
    const send = vi.fn(() => Promise.resolve());
    render(<Refund send={send} />);
    await userEvent.type(screen.getByLabelText(/Amount to refund/), '50.50');
    await userEvent.type(screen.getByLabelText(/Reason/), 'Missed the day');
    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    const step = await screen.findByRole('group', { name: 'Refund £50.50 to the card?' });
    expect(document.activeElement).toBe(step);
    expect(send).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'No, not now' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Refund…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, refund' }));
    expect(await screen.findByText('Refund of £50.50 recorded.')).toBeInTheDocument();
    expect(send).toHaveBeenCalledExactlyOnceWith({ amount: 5050, reason: 'Missed the day' });
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Refund…' }));
  });
});

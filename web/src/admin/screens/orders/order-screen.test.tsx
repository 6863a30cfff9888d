import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, type Answer } from '../../../test/api-stub';
import type { Order } from '../../lib/api-types';
import { order, session, staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const answer = (changes: Partial<Order> = {}) => () => jsonResponse(200, { order: order(changes) });

function renderOrder(answers: Record<string, Answer> = {}, role: 'staff' | 'owner' = 'staff') {
  return renderAdmin('/orders/ord-7/', staffMember(role), { 'GET /api/admin/orders/ord-7': answer(), ...answers });
}

/** The action section named `title`. */
const action = async (title: string) => screen.findByRole('region', { name: title });

describe('an order', () => {
  afterEach(() => vi.useRealTimers());

  it('shows who, what, how much is paid and due, and its history', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
    renderOrder();
    expect(await screen.findByText('£200.00, due 1 Dec 2026')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Order B-Z20KM' })).toBeInTheDocument();
    expect(screen.getByText('ord-7')).toHaveClass('internal-id');
    expect(within(screen.getByRole('table', { name: 'What was booked' })).getByText('15 Dec 2026')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Payments' })).getByText('£250.00')).toBeInTheDocument();
    expect(screen.getByText('No refunds.')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Mails' })).getByText('Your booking')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Changes to this order' })).getByText('refund')).toBeInTheDocument();
    expect(screen.getByText(/^“I accept the terms and conditions, including the cancellation policy\.” Agreed/)).toBeInTheDocument();
  });

  it('says a balance whose day has passed is overdue, never due on a past day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-05T12:00:00Z'));
    renderOrder();
    expect(await screen.findByText('£200.00, overdue since 1 Dec 2026')).toBeInTheDocument();
  });

  it('refunds an amount typed in pounds, sent in pence, and shows the order the server answers', async () => {
    const api = renderOrder({
      'POST /api/admin/orders/ord-7/refund': answer({ refunds: [{ id: 'ref-1', amount: 5050, status: 'pending', reason: 'Goodwill', createdAt: '2026-11-21T10:00:00Z', byHand: false }] }),
    });
    const refund = await action('Refund');
    await userEvent.type(within(refund).getByLabelText(/Amount to refund/), '50.50');
    await userEvent.type(within(refund).getByLabelText(/Reason/), 'Goodwill');
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund…' }));
    expect(callsTo(api, 'POST /api/admin/orders/ord-7/refund'), 'nothing is sent before the amount is confirmed').toEqual([]);
    expect(await within(refund).findByRole('group', { name: 'Refund £50.50 the way it was paid?' })).toHaveFocus();
    await userEvent.click(within(refund).getByRole('button', { name: 'Yes, refund' }));
    expect(await within(refund).findByRole('status')).toHaveTextContent('Refund of £50.50 recorded.');
    expect(callsTo(api, 'POST /api/admin/orders/ord-7/refund')[0]?.body).toEqual({ amount: 5050, reason: 'Goodwill' });
    expect(within(screen.getByRole('table', { name: 'Refunds' })).getByText('£50.50')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record as paid back' }), 'the provider pays card refunds back').not.toBeInTheDocument();
    expect(within(refund).getByLabelText<HTMLInputElement>(/Amount to refund/).value).toBe('');
  });

  it('records a refund of money taken by hand as paid back', async () => {
    const pending = { id: 'ref-2', amount: 1000, status: 'pending', reason: 'Kit not needed', createdAt: '2026-11-21T10:00:00Z', byHand: true };
    const api = renderOrder({
      'GET /api/admin/orders/ord-7': answer({ refunds: [pending] }),
      'POST /api/admin/orders/ord-7/refunds/ref-2/made': answer({ refunds: [{ ...pending, status: 'succeeded' }] }),
    });
    await userEvent.type(await screen.findByLabelText(/How the £10.00 was paid back/), 'BACS 0043');
    await userEvent.click(screen.getByRole('button', { name: 'Record as paid back' }));
    await vi.waitFor(() => expect(callsTo(api, 'POST /api/admin/orders/ord-7/refunds/ref-2/made')[0]?.body).toEqual({ reference: 'BACS 0043' }));
    expect(await within(screen.getByRole('table', { name: 'Refunds' })).findByText('succeeded')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record as paid back' })).not.toBeInTheDocument();
  });

  it('puts the server’s field messages beside the fields, and its message in the summary', async () => {
    renderOrder({
      'POST /api/admin/orders/ord-7/refund': () =>
        jsonResponse(422, { error: { code: 'refused', message: 'The refund was refused.', fields: { amount: 'At most £250.00 was paid.' } } }),
    });
    const refund = await action('Refund');
    await userEvent.type(within(refund).getByLabelText(/Amount to refund/), '300');
    await userEvent.type(within(refund).getByLabelText(/Reason/), 'Overpaid');
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund…' }));
    await userEvent.click(await within(refund).findByRole('button', { name: 'Yes, refund' }));
    expect(await within(refund).findByText('The refund was refused.')).toBeInTheDocument();
    const amount = within(refund).getByLabelText(/Amount to refund/);
    expect(document.getElementById(`${amount.id}-error`)?.textContent).toBe('At most £250.00 was paid.');
    await vi.waitFor(() => expect(document.activeElement).toBe(within(refund).getByText('There is a problem').closest('.error-summary')));
  });

  it('records a payment taken off the site', async () => {
    const api = renderOrder({ 'POST /api/admin/orders/ord-7/payments': answer({ paid: 45000, balance: 0, status: 'completed' }) });
    const payment = await action('Record a payment');
    await userEvent.type(within(payment).getByLabelText(/Amount paid/), '200');
    await userEvent.click(within(payment).getByLabelText('Bank transfer'));
    await userEvent.type(within(payment).getByLabelText(/Reference/), 'HSBC 7781');
    await userEvent.click(within(payment).getByRole('button', { name: 'Record the payment' }));
    expect(await within(payment).findByText('Payment of £200.00 recorded.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/orders/ord-7/payments')[0]?.body).toEqual({ amount: 20000, method: 'bank_transfer', reference: 'HSBC 7781' });
    expect(screen.getByText('Paid in full')).toBeInTheDocument();
  });

  it('moves a booking to another session of the same course', async () => {
    const api = renderOrder({
      'GET /api/admin/sessions': () => jsonResponse(200, { sessions: [session(), session({ id: 'ses-4', date: '2027-01-20', booked: 5, held: 1 })] }),
      'POST /api/admin/orders/ord-7/move': answer(),
    });
    const move = await action('Move a booking');
    await within(move).findByRole('option', { name: /20 Jan 2027/ });
    // The booking's own session is not offered.
    expect(within(move).queryByRole('option', { name: /15 Dec 2026, 10:00/ })).not.toBeInTheDocument();
    await userEvent.selectOptions(within(move).getByLabelText(/Move to/), '20 Jan 2027, 10:00–16:00 · On site · 10 seats free');
    await userEvent.click(within(move).getByRole('button', { name: 'Move the booking' }));
    expect(await within(move).findByText('Booking moved. The student is emailed the new date.')).toBeInTheDocument();
    expect(callsTo(api, 'GET /api/admin/sessions')[0]?.url).toBe('/api/admin/sessions?course=botox');
    expect(callsTo(api, 'POST /api/admin/orders/ord-7/move')[0]?.body).toEqual({ fromSessionId: 'ses-1', toSessionId: 'ses-4' });
  });

  it('changes the balance deadline', async () => {
    const api = renderOrder({ 'POST /api/admin/orders/ord-7/deadline': answer({ balanceDueOn: '2026-12-08' }) });
    const deadline = await action('Balance deadline');
    const date = within(deadline).getByLabelText(/Balance due on/);
    await userEvent.clear(date);
    await userEvent.type(date, '2026-12-08');
    await userEvent.click(within(deadline).getByRole('button', { name: 'Change the deadline' }));
    expect(await within(deadline).findByText('Balance deadline changed.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/orders/ord-7/deadline')[0]?.body).toEqual({ balanceDueOn: '2026-12-08' });
    expect(screen.getByText('£200.00, due 8 Dec 2026')).toBeInTheDocument();
  });

  it('cancels with the refund chosen, only once confirmed', async () => {
    const api = renderOrder({ 'POST /api/admin/orders/ord-7/cancel': answer({ status: 'cancelled' }) });
    const cancel = await action('Cancel the order');
    await userEvent.click(within(cancel).getByLabelText('A full refund of what was paid (£250.00)'));
    await userEvent.click(within(cancel).getByRole('button', { name: 'Cancel the order…' }));
    expect(within(cancel).getByRole('group', { name: /Every booking on this order is cancelled/ })).toHaveTextContent('Refund: A full refund of what was paid (£250.00).');
    expect(callsTo(api, 'POST /api/admin/orders/ord-7/cancel')).toHaveLength(0);
    await userEvent.click(within(cancel).getByRole('button', { name: 'Yes, cancel the order' }));
    expect(await within(cancel).findByText('Order cancelled. The student is emailed.')).toBeInTheDocument();
    expect(within(cancel).getByText('This order is cancelled.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/orders/ord-7/cancel')[0]?.body).toEqual({ refund: 'full' });
  });

  it('sends a mail again', async () => {
    const api = renderOrder({ 'POST /api/admin/orders/ord-7/mails/mail-1/resend': answer() });
    await userEvent.click(await screen.findByRole('button', { name: 'Resend “Your booking”' }));
    expect(await screen.findByText('Sent again to amara@example.com.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/orders/ord-7/mails/mail-1/resend')).toHaveLength(1);
  });

  it('offers no money forms to a role without `money`, but still sends mails again', async () => {
    renderAdmin('/orders/ord-7/', staffMember('staff', { permissions: ['orders'] }), { 'GET /api/admin/orders/ord-7': answer() });
    expect(await screen.findByRole('button', { name: 'Resend “Your booking”' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Actions' })).not.toBeInTheDocument();
    for (const title of ['Refund', 'Record a payment', 'Balance deadline', 'Move a booking', 'Cancel the order']) {
      expect(screen.queryByRole('region', { name: title })).not.toBeInTheDocument();
    }
  });
});

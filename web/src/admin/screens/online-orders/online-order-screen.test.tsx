import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, type Answer } from '../../../test/api-stub';
import type { OnlineOrder } from '../../lib/api-types';
import { staffMember } from '../../test/fixtures';
import { learner, onlineOrder } from '../../test/online-fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const answer = (changes: Partial<OnlineOrder> = {}) => () => jsonResponse(200, { order: onlineOrder(changes) });

function renderOrder(answers: Record<string, Answer> = {}) {
  return renderAdmin('/orders/online/onl-1/', staffMember('staff'), { 'GET /api/admin/online-orders/onl-1': answer(), ...answers });
}

describe('an online order', () => {
  it('shows who bought what, what is paid, the access it gave and its history', async () => {
    renderOrder();
    expect(await screen.findByRole('heading', { level: 1, name: 'Online order E-4HX2M' })).toBeInTheDocument();
    const bought = screen.getByRole('table', { name: 'What was bought' });
    expect(within(bought).getByText('Add-on')).toBeInTheDocument();
    expect(within(bought).getByText('£25.00')).toBeInTheDocument();
    const access = screen.getByRole('table', { name: 'Course access it gave' });
    const [, first] = within(access).getAllByRole('row');
    expect(within(first!).getByText('Active to 2 Nov 2027')).toBeInTheDocument();
    expect(within(first!).getByText('40%')).toBeInTheDocument();
    expect(within(first!).getByRole('link', { name: 'E-4HX2M' })).toHaveAttribute('href', '/admin/orders/online/onl-1/');
    expect(within(screen.getByRole('table', { name: 'Payments' })).getByText('£124.00')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Mails' })).getByText('Your order')).toBeInTheDocument();
    expect(screen.getByText('No refunds.')).toBeInTheDocument();
  });

  it('refunds the lines ticked, after saying what access ends, and shows the order answered', async () => {
    const refunded = onlineOrder().lines.map((line) => ({ ...line, refunded: line.index === 1 }));
    const api = renderOrder({
      'POST /api/admin/online-orders/onl-1/refund': answer({
        paid: 9900,
        lines: refunded,
        refunds: [{ id: 'ref-1', amount: 2500, status: 'succeeded', reason: 'Not wanted', createdAt: '2026-11-21T10:00:00Z', byHand: false }],
        registrations: [learner(), learner({ id: 'reg-2', courseTitle: 'Hygiene Online', access: { state: 'revoked' }, revokeReason: 'Refunded: Not wanted' })],
      }),
    });
    const refund = await screen.findByRole('region', { name: 'Refund' });
    await userEvent.click(within(refund).getByRole('checkbox', { name: 'Hygiene Add-on, £25.00' }));
    await userEvent.type(within(refund).getByLabelText(/Reason/), 'Not wanted');
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund…' }));
    expect(callsTo(api, 'POST /api/admin/online-orders/onl-1/refund'), 'nothing is sent before it is confirmed').toEqual([]);
    expect(await within(refund).findByRole('group', { name: 'Refund £25.00 the way it was paid, and end access to Hygiene Add-on now?' })).toHaveFocus();
    await userEvent.click(within(refund).getByRole('button', { name: 'Yes, refund' }));
    expect(await within(refund).findByRole('status')).toHaveTextContent('Refund recorded; the access it bought has ended.');
    expect(callsTo(api, 'POST /api/admin/online-orders/onl-1/refund')[0]?.body).toEqual({ lines: [1], reason: 'Not wanted' });
    expect(within(screen.getByRole('table', { name: 'Course access it gave' })).getByText('Withdrawn: Refunded: Not wanted')).toBeInTheDocument();
    expect(within(refund).queryByRole('checkbox', { name: /Hygiene Add-on/ }), 'a line is refunded once').not.toBeInTheDocument();
  });

  it('says why a refund was refused', async () => {
    renderOrder({
      'POST /api/admin/online-orders/onl-1/refund': () => jsonResponse(422, { error: { code: 'refused', message: 'Hygiene Add-on has been refunded already.' } }),
    });
    const refund = await screen.findByRole('region', { name: 'Refund' });
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund…' }));
    expect(await within(refund).findByText('Choose what to refund')).toBeInTheDocument();
    await userEvent.click(within(refund).getByRole('checkbox', { name: 'Hygiene Add-on, £25.00' }));
    await userEvent.type(within(refund).getByLabelText(/Reason/), 'Again');
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund…' }));
    await userEvent.click(await within(refund).findByRole('button', { name: 'Yes, refund' }));
    expect(await within(refund).findAllByText('Hygiene Add-on has been refunded already.')).not.toHaveLength(0);
  });

  it('withdraws access with a reason and reads the order again', async () => {
    const api = renderOrder({
      'POST /api/admin/online-registrations/reg-1/revoke': () => jsonResponse(200, { registration: learner({ access: { state: 'revoked' } }) }),
    });
    const changes = await screen.findByRole('region', { name: 'Change access' });
    await userEvent.type(within(changes).getByLabelText(/Reason for withdrawing/), 'Shared her login');
    await userEvent.click(within(changes).getByRole('button', { name: 'Withdraw access…' }));
    await userEvent.click(await within(changes).findByRole('button', { name: 'Yes, withdraw it' }));
    await vi.waitFor(() => expect(callsTo(api, 'POST /api/admin/online-registrations/reg-1/revoke')[0]?.body).toEqual({ reason: 'Shared her login' }));
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/online-orders/onl-1')).toHaveLength(2));
  });

  it('moves the last day of the registration chosen', async () => {
    const api = renderOrder({
      'POST /api/admin/online-registrations/reg-2/last-day': () => jsonResponse(200, { registration: learner({ id: 'reg-2', lastDay: '2028-01-31' }) }),
    });
    const changes = await screen.findByRole('region', { name: 'Change access' });
    await userEvent.selectOptions(within(changes).getByLabelText('Registration'), 'reg-2');
    const day = within(changes).getByLabelText(/Last day of access/);
    await userEvent.clear(day);
    await userEvent.type(day, '2028-01-31');
    await userEvent.click(within(changes).getByRole('button', { name: 'Change the last day' }));
    expect(await within(changes).findByText('Access now ends on 31 Jan 2028.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/online-registrations/reg-2/last-day')[0]?.body).toEqual({ lastDay: '2028-01-31' });
  });

  it('gives a withdrawn registration back', async () => {
    const api = renderOrder({
      'GET /api/admin/online-orders/onl-1': answer({ registrations: [learner({ access: { state: 'revoked' }, revokeReason: 'Chargeback' })] }),
      'POST /api/admin/online-registrations/reg-1/restore': () => jsonResponse(200, { registration: learner() }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Give access back' }));
    expect(await screen.findByText('Access given back.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/online-registrations/reg-1/restore')).toHaveLength(1);
  });

  it('offers no refund or change of access without the money permission', async () => {
    renderAdmin('/orders/online/onl-1/', staffMember('staff', { permissions: ['orders'] }), { 'GET /api/admin/online-orders/onl-1': answer() });
    await screen.findByRole('table', { name: 'What was bought' });
    expect(screen.queryByRole('region', { name: 'Refund' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Change access' })).not.toBeInTheDocument();
  });
});

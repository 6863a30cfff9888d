import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/api-stub';
import { microneedling, session } from '../../test/checkout-fixtures';
import { agree, fillCard, fillContact, intent, payButton, ready, renderCheckout, stubSite } from './checkout-page-test-utils';

// A £1,995 course in May 2027, booked on 26 November 2026: its balance is
// due on 16 May, so up to five monthly instalments fit before it.
const expensive = { ...microneedling, price: 199500, sessions: [session('mn-9', '2027-05-30', 199500)], sessionId: 'mn-9' };
const quote = { subtotal: 199500, discount: 0, total: 199500, deposit: 10000, balance: 189500 };

function planApi(maxInstalments: number) {
  return stubSite({
    'POST /api/checkout/basket': () => jsonResponse(200, { lines: [expensive], removed: [], maxInstalments }),
    'POST /api/checkout/': () => jsonResponse(200, intent),
    'POST /api/enroll/': () => jsonResponse(201, { id: 'order-1', quote }),
    'PUT /api/checkout/': () => jsonResponse(200, intent),
    'POST /sandbox/payment_intents/pi_1/confirm': () => jsonResponse(200, { redirect: '/enrolment/order-1?redirect_status=succeeded' }),
  });
}

describe('CheckoutPage instalment plans', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows every part and day before the buyer agrees, and sends the parts shown with the consent', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = planApi(6);
    renderCheckout([expensive]);
    await ready();
    const plan = screen.getByRole('group', { name: 'How would you like to pay the balance of £1,895.00?' });
    expect(within(plan).getByRole('radio', { name: 'In one payment, by Sunday 16 May 2027' })).toBeChecked();
    await userEvent.click(within(plan).getByRole('radio', { name: 'In 2 to 5 monthly instalments, interest-free' }));
    await userEvent.selectOptions(within(plan).getByLabelText('Number of instalments'), '3');
    const rows = within(within(plan).getByRole('table', { name: 'Your payments' })).getAllByRole('row').map((row) => row.textContent);
    expect(rows).toEqual([
      'WhenWhatAmount',
      'TodayBooking fee£100.00',
      'Saturday 26 December 2026Instalment 1£631.68',
      'Tuesday 26 January 2027Instalment 2£631.66',
      'Friday 26 February 2027Instalment 3£631.66',
      'Total£1,995.00',
    ]);

    await fillContact();
    await fillCard('4242 4242 4242 4242');
    await agree();
    await userEvent.click(payButton());
    expect(await screen.findByText(/Please agree to your card being saved for the instalments/)).toBeInTheDocument();
    expect(api.routes()).not.toContain('POST /api/enroll/');

    await userEvent.click(screen.getByRole('checkbox', { name: /the 3 instalments shown are taken from it on their days/ }));
    await userEvent.click(payButton());
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/enrolment/order-1?redirect_status=succeeded'));
    const update = api.calls.find((call) => call.route === 'PUT /api/checkout/')!.body as Record<string, unknown>;
    expect(update.plan).toEqual({
      parts: [
        { number: 1, dueOn: '2026-12-26', amount: 63168 },
        { number: 2, dueOn: '2027-01-26', amount: 63166 },
        { number: 3, dueOn: '2027-02-26', amount: 63166 },
      ],
      cardConsent: true,
    });
    expect(update.amount).toBe(10000);
  });

  it('offers no instalments when paying in full, nor when the college allows fewer than fit', async () => {
    planApi(1);
    renderCheckout([expensive]);
    await ready();
    expect(screen.queryByRole('group', { name: /How would you like to pay the balance/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Ask about a payment plan' })).toBeInTheDocument();
  });

  it('sends no plan when the buyer keeps one payment', async () => {
    vi.stubGlobal('location', { ...window.location, assign: vi.fn() });
    const api = planApi(6);
    renderCheckout([expensive]);
    await ready();
    await userEvent.click(screen.getByRole('radio', { name: /monthly instalments/ }));
    await userEvent.click(screen.getByRole('radio', { name: /In one payment/ }));
    await fillContact();
    await fillCard('4242 4242 4242 4242');
    await agree();
    await userEvent.click(payButton());
    await vi.waitFor(() => expect(api.routes()).toContain('PUT /api/checkout/'));
    const update = api.calls.find((call) => call.route === 'PUT /api/checkout/')!.body as Record<string, unknown>;
    expect(update).not.toHaveProperty('plan');
  });
});

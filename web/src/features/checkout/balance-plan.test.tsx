import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '../../test/memory-router';
import { describe, expect, it } from 'vitest';
import type { BalancePage as BalancePageData } from '../../generated/BalancePage';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { BalancePage } from './balance-page';

// A £1,995 booking in May 2027 whose fee was paid without a plan: on 26
// November 2026 its £1,895 balance, due 16 May, may be spread over 2 to 5 months.
const booking = {
  orderId: 'order-1', reference: 'B-Z20KM', givenName: 'Amara', status: 'deposit' as const,
  lines: [{ title: 'Injectables Course', courseUrl: '/courses/injectables/x/', date: '2027-05-30', sessionType: 'onsite' as const, kitName: null, amount: 199500 }],
  total: 199500, discount: 0, paid: 10000, balance: 189500, balanceDueOn: '2027-05-16', minPayment: 1000, email: 'amara@example.com',
  returnedPaymentRecorded: null, plan: null, maxInstalments: 6,
};
const plan = {
  enrollment_id: 'order-1', status: 'active', card: 'Visa ending 4242',
  parts: [
    { number: 1, due_on: '2026-12-26', amount: 94750, status: 'scheduled' },
    { number: 2, due_on: '2027-01-26', amount: 94750, status: 'scheduled' },
  ],
};
const path = '/pay-balance/?token=ab12cd';

function renderPage(data: BalancePageData['booking']) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <BalancePage page={{ booking: data, gateway: 'sandbox', publishableKey: null }} path={path} today="2026-11-26" />
    </MemoryRouter>,
  );
}

async function saveCard() {
  const form = await screen.findByRole('form', { name: 'Save your card' });
  await userEvent.type(within(form).getByLabelText(/Card number/), '4242 4242 4242 4242');
  await userEvent.type(within(form).getByLabelText(/Expiry/), '12 / 34');
  await userEvent.type(within(form).getByLabelText(/Security code/), '123');
  await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));
}

describe('a plan from the balance page', () => {
  it('spreads the rest over the months chosen, with consent, and saves the card without a payment', async () => {
    const api = stubApi({
      'POST /api/balance/card': () => jsonResponse(200, { id: 'seti_1', clientSecret: 'seti_1_secret' }),
      'POST /sandbox/setup_intents/seti_1/confirm': () => jsonResponse(200, { id: 'seti_1', status: 'succeeded' }),
      'POST /api/balance/card/confirm': () => jsonResponse(200, plan),
    });
    renderPage(booking);
    const offer = screen.getByRole('form', { name: 'Spread the rest in monthly instalments' });
    await userEvent.click(within(offer).getByRole('radio', { name: 'In 2 to 5 monthly instalments, interest-free' }));
    await userEvent.selectOptions(within(offer).getByLabelText('Number of instalments'), '2');
    const rows = within(within(offer).getByRole('table', { name: 'Your payments' })).getAllByRole('row').map((row) => row.textContent);
    expect(rows).toEqual(['WhenWhatAmount', 'Saturday 26 December 2026Instalment 1£947.50', 'Tuesday 26 January 2027Instalment 2£947.50', 'Total£1,895.00']);
    await userEvent.click(within(offer).getByRole('button', { name: 'Continue to your card' }));
    expect(await within(offer).findByText(/Please agree to your card being saved/)).toBeInTheDocument();
    await userEvent.click(within(offer).getByRole('checkbox', { name: /the 2 instalments shown are taken from it/ }));
    await userEvent.click(within(offer).getByRole('button', { name: 'Continue to your card' }));
    await saveCard();

    expect(await screen.findByRole('table', { name: 'Your payment plan: 2 monthly instalments' })).toBeInTheDocument();
    expect(api.calls.map((call) => call.route)).toEqual(['POST /api/balance/card', 'POST /sandbox/setup_intents/seti_1/confirm', 'POST /api/balance/card/confirm']);
    expect(api.calls[0]!.body).toEqual({
      token: 'ab12cd',
      plan: { parts: [{ number: 1, dueOn: '2026-12-26', amount: 94750 }, { number: 2, dueOn: '2027-01-26', amount: 94750 }], cardConsent: true },
    });
    expect(api.calls[2]!.body).toEqual({ token: 'ab12cd', setupIntent: 'seti_1' });
  });

  it('changes the card of a running plan', async () => {
    const api = stubApi({
      'POST /api/balance/card': () => jsonResponse(200, { id: 'seti_1', clientSecret: 'seti_1_secret' }),
      'POST /sandbox/setup_intents/seti_1/confirm': () => jsonResponse(200, { id: 'seti_1', status: 'succeeded' }),
      'POST /api/balance/card/confirm': () => jsonResponse(200, { ...plan, card: 'Visa ending 0341' }),
    });
    renderPage({ ...booking, plan });
    expect(screen.getByRole('heading', { name: 'Your payment plan' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Spread the rest in monthly instalments' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Use another card' }));
    await saveCard();
    expect(await screen.findByText(/taken from your Visa ending 0341/)).toBeInTheDocument();
    expect(api.calls[0]!.body).toEqual({ token: 'ab12cd' });
  });

  it('says why a card was not saved', async () => {
    stubApi({
      'POST /api/balance/card': () => jsonResponse(200, { id: 'seti_1', clientSecret: 'seti_1_secret' }),
      'POST /sandbox/setup_intents/seti_1/confirm': () => jsonResponse(402, { error: { code: 'payment_failed', message: 'Your card was declined.' } }),
    });
    renderPage({ ...booking, plan });
    await userEvent.click(screen.getByRole('button', { name: 'Use another card' }));
    await saveCard();
    expect(await screen.findByText('The card was not saved: Your card was declined.')).toBeInTheDocument();
  });
});

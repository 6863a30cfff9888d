import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '../../test/memory-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BalancePage as BalancePageData } from '../../generated/BalancePage';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { amountProblem, BalancePage, pence } from './balance-page';

const booking = {
  orderId: 'order-1',
  reference: 'B-Z20KM',
  givenName: 'Amara',
  status: 'deposit' as const,
  lines: [{ title: 'Microneedling Course', courseUrl: '/courses/aesthetics/microneedling/', date: '2027-01-12', sessionType: 'onsite' as const, kitName: null, amount: 89000 }],
  total: 89000,
  discount: 0,
  paid: 10000,
  balance: 79000,
  balanceDueOn: '2026-12-29',
  minPayment: 1000,
  email: 'amara@example.com',
  returnedPaymentRecorded: null,
  plan: null,
  maxInstalments: 6,
};
const page: BalancePageData = { booking, gateway: 'sandbox', publishableKey: null };
const path = '/pay-balance/?token=ab12cd';

function renderPage(data: BalancePageData, at = path, today = '2026-11-25') {
  render(
    <MemoryRouter initialEntries={[at]}>
      <BalancePage page={data} path={at} today={today} />
    </MemoryRouter>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('the amount to pay', () => {
  it('reads pounds as typed, with or without pence, a pound sign or commas', () => {
    expect(pence('250')).toBe(25000);
    expect(pence('£1,250.5')).toBe(125050);
    expect(pence('0.07')).toBe(7);
    expect(pence('12.345')).toBeNull();
    expect(pence('ten')).toBeNull();
  });

  it('says what the server would refuse', () => {
    expect(amountProblem('9.99', booking)).toBe('Please pay at least £10.00.');
    expect(amountProblem('790.01', booking)).toBe('The balance is £790.00: please pay no more than that.');
    expect(amountProblem('abc', booking)).toBe('Enter an amount in pounds, like 250.00');
    expect(amountProblem('790', booking)).toBeUndefined();
  });
});

describe('the balance page', () => {
  it('shows what is owed and by when, prepares the chosen amount, then takes the card', async () => {
    const api = stubApi({
      'POST /api/balance/intent': () => jsonResponse(200, { client_secret: 'pi_1_secret', id: 'pi_1', payment_methods: ['card'] }),
      'POST /sandbox/payment_intents/pi_1/confirm': () => jsonResponse(200, { redirect: `${path}&payment_intent=pi_1&redirect_status=succeeded` }),
    });
    const assign = vi.fn();
    const origin = window.location.origin;
    vi.stubGlobal('location', { ...window.location, assign });
    renderPage(page);
    expect(screen.getByRole('heading', { level: 2, name: '£790.00 due by Tuesday 29th December' })).toBeInTheDocument();
    const amount = screen.getByLabelText(/Amount to pay now/);
    expect(amount).toHaveValue('790.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '200');
    await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(api.calls[0]).toEqual({ route: 'POST /api/balance/intent', body: { token: 'ab12cd', amount: 20000 } });
    await userEvent.type(await screen.findByLabelText(/Card number/), '4242 4242 4242 4242');
    expect(screen.queryByRole('radio', { name: 'Klarna' })).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Expiry/), '12 / 34');
    await userEvent.type(screen.getByLabelText(/Security code/), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Pay £200.00' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(`${path}&payment_intent=pi_1&redirect_status=succeeded`));
    expect(api.calls[1]?.body).toMatchObject({ client_secret: 'pi_1_secret', return_url: `${origin}${path}` });
  });

  it('says a balance due on or before today is due now', () => {
    renderPage(page, path, '2026-12-29');
    expect(screen.getByRole('heading', { level: 2, name: '£790.00 due now' })).toBeInTheDocument();
  });

  it('thanks the student once the payment it returned from is recorded', () => {
    renderPage({ ...page, booking: { ...booking, paid: 89000, balance: 0, returnedPaymentRecorded: true } });
    expect(screen.getByRole('heading', { level: 1, name: 'Payment received' })).toBeInTheDocument();
    expect(screen.getByText('Your training is paid in full. Thank you.')).toBeInTheDocument();
  });

  it('says an unknown or expired link cannot pay, and where to go instead', () => {
    renderPage({ ...page, booking: null });
    expect(screen.getByRole('heading', { level: 1, name: 'This payment link has expired' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to your account' })).toHaveAttribute('href', '/sign-in/');
  });
});

describe('a link that asks for an instalment', () => {
  it('fills in the amount it asks for, and the whole balance when that is not one that may be paid', () => {
    renderPage(page, '/pay-balance/?token=ab12cd&amount=31600');
    expect(screen.getByLabelText<HTMLInputElement>(/Amount to pay now/).value).toBe('316.00');
  });

  it('falls back to the whole balance beyond it', () => {
    renderPage(page, '/pay-balance/?token=ab12cd&amount=99999999');
    expect(screen.getByLabelText<HTMLInputElement>(/Amount to pay now/).value).toBe('790.00');
  });
});


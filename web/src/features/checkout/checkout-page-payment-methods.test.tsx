import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { dermaplaning, microneedling } from '../../test/checkout-fixtures';
import { checkoutApi, payButton, ready, renderCheckout, totalOf } from './checkout-page-test-utils';

describe('CheckoutPage payment methods', () => {
  it('pays the booking fee by card, the full total by Klarna or Clearpay, and offers Clearpay up to £1,200', async () => {
    checkoutApi([microneedling]);
    renderCheckout([microneedling]);
    await ready();
    expect(screen.getByRole('radio', { name: 'Card' })).toHaveProperty('checked', true);
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
    expect(screen.getByText('4242 4242 4242 4242: payment succeeds')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Klarna' }));
    expect(payButton().textContent).toBe('Pay £795.00');
    expect(totalOf('Paying in full today')).toBe('£795.00');
    expect(screen.queryByLabelText(/Card number/)).toBeNull();
    expect(screen.getByLabelText(/First name/).hasAttribute('required')).toBe(false);

    await userEvent.click(screen.getByRole('radio', { name: 'Clearpay' }));
    expect(payButton().textContent).toBe('Pay £795.00');
    await userEvent.click(screen.getByRole('radio', { name: /^Friday 5th March/ }));
    await userEvent.click(screen.getByLabelText(/Add the Microneedling starter kit/));
    expect(payButton().textContent).toBe('Pay £845.00');

    await userEvent.click(screen.getByRole('radio', { name: 'Card' }));
    expect(payButton().textContent).toBe('Pay booking fee £100.00');
    expect(totalOf('Balance')).toContain('£745.00');
  });

  it('hides Clearpay above £1,200 and falls back to card', async () => {
    checkoutApi([microneedling, dermaplaning]);
    renderCheckout([microneedling, dermaplaning]);
    await ready();
    expect(screen.getByRole('radio', { name: 'Klarna' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Clearpay' })).toBeNull();
  });
});

import { render, screen } from '@testing-library/react';
import { MemoryRouter } from '../test/memory-router';
import { describe, expect, it } from 'vitest';
import { PaymentStatus, type PaymentState } from './payment-status';

function renderStatus(state: PaymentState) {
  render(
    <MemoryRouter>
      <PaymentStatus
        state={state}
        gaveUp={false}
        heading="Payment received"
        confirmed="Thank you. We have emailed your receipt."
        failed="Your payment did not go through."
        mailed="receipt"
        reference={['Booking reference', 'B-Z20KM']}
      />
    </MemoryRouter>,
  );
}

describe('PaymentStatus', () => {
  it('leads back to the account once the payment is confirmed', () => {
    renderStatus('confirmed');
    expect(screen.getByRole('status').textContent).toBe('Thank you. We have emailed your receipt.');
    expect(screen.getByRole('link', { name: 'Go to your account' }).getAttribute('href')).toBe('/account/');
  });

  it('offers no way on while the payment is not confirmed', () => {
    renderStatus('waiting');
    expect(screen.queryByRole('link', { name: 'Go to your account' })).toBeNull();
  });
});

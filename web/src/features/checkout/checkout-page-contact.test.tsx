import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/api-stub';
import { amara, signedIn } from '../../test/auth-fixtures';
import { microneedling } from '../../test/checkout-fixtures';
import { agree, checkoutApi, fillCard, fillContact, intent, payButton, quote, ready, renderCheckout } from './checkout-page-test-utils';

describe('CheckoutPage contact details', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for each course\'s entry requirements and the terms, beside their boxes, before sending anything', async () => {
    const api = checkoutApi([microneedling]);
    renderCheckout([microneedling]);
    await ready();
    await fillContact();
    await fillCard('4242 4242 4242 4242');
    await userEvent.click(payButton());
    const entry = screen.getByRole('checkbox', {
      name: 'I meet the entry requirements of Microneedling Course, and I will send proof of them before training.',
    });
    expect(entry).toHaveFocus();
    expect(entry).toHaveAccessibleDescription(/^Please confirm you meet the entry requirements of each course A Level 2 or 3 beauty qualification/);
    const terms = screen.getByRole('checkbox', { name: 'I accept the terms and conditions, including the cancellation policy.' });
    expect(terms).toHaveAccessibleDescription('Please accept the terms and conditions to continue');
    expect(screen.getByRole('link', { name: 'How to show you meet them for Microneedling Course' })).toHaveAttribute(
      'href', '/courses/aesthetics/microneedling/#entry-requirements',
    );
    expect(screen.getByRole('link', { name: 'cancellation policy' })).toHaveAttribute('href', '/terms-and-conditions/#cancellation');
    expect(api.routes()).not.toContain('POST /api/enroll/');
    await agree();
    expect(terms).not.toHaveAccessibleDescription();
  });

  it('requires the contact and card details for a card payment, beside each field', async () => {
    const api = checkoutApi([microneedling]);
    renderCheckout([microneedling]);
    await ready();
    await userEvent.type(screen.getByLabelText(/Email/), 'amara@');
    await agree();
    await userEvent.click(payButton());
    for (const message of [
      'Name is required', 'Last name is required', 'Enter a valid email address', 'Phone number is required',
      'Card number is required', 'Expiry date is required', 'Security code is required',
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    const firstName = screen.getByLabelText(/First name/);
    expect(firstName.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(firstName.getAttribute('aria-describedby')!)!.textContent).toBe('Name is required');
    expect(document.activeElement).toBe(firstName);
    expect((screen.getByLabelText<HTMLInputElement>(/Email/)).value).toBe('amara@');
    await userEvent.clear(screen.getByLabelText(/Email/));
    await agree();
    await userEvent.click(payButton());
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(api.routes()).not.toContain('POST /api/enroll/');
  });

  it('fills in a signed-in buyer’s details and sends their payment account id and email with the intent (§6)', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = checkoutApi([microneedling], {
      'POST /api/enroll/': () => jsonResponse(201, { id: 'order-1', quote }),
      'PUT /api/checkout/': () => jsonResponse(200, intent),
      'POST /sandbox/payment_intents/pi_1/confirm': () => jsonResponse(200, { redirect: '/enrolment/order-1' }),
    }, signedIn);
    renderCheckout([microneedling]);
    await ready();
    const customer = { customerId: 'cus_amara', email: amara.email };
    expect(api.calls.find((call) => call.route === 'POST /api/checkout/')).toEqual({ route: 'POST /api/checkout/', body: { amount: 10000, ...customer } });
    expect((screen.getByLabelText<HTMLInputElement>(/First name/)).value).toBe('Amara');
    expect((screen.getByLabelText<HTMLInputElement>(/Last name/)).value).toBe('Okafor');
    expect((screen.getByLabelText<HTMLInputElement>(/Email/)).value).toBe('amara@example.com');
    expect((screen.getByLabelText<HTMLInputElement>(/Phone number/)).value).toBe('+447700900123');
    await fillCard('4242 4242 4242 4242');
    await agree();
    await userEvent.click(payButton());
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/enrolment/order-1'));
    expect(api.calls.find((call) => call.route === 'PUT /api/checkout/')).toMatchObject({ body: { intent: 'pi_1', ...customer } });
  });

  it('puts the server’s field messages beside the fields', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    checkoutApi([microneedling], {
      'POST /api/enroll/': () =>
        jsonResponse(422, { error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { phone: 'Please keep this under 200 characters' } } }),
    });
    renderCheckout([microneedling]);
    await ready();
    await fillContact();
    await fillCard('4242 4242 4242 4242');
    await agree();
    await userEvent.click(payButton());
    expect(await screen.findByText('Please keep this under 200 characters')).toBeInTheDocument();
    expect(screen.getByText('Please check the highlighted fields.')).toBeInTheDocument();
    expect(document.activeElement).toBe(screen.getByLabelText(/Phone number/));
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, SLOW_DOWN, stubApi, tooManyRequests } from '../../test/api-stub';
import { EMPTY_CONTACT } from './checkout-rules';
import { PaymentPlan } from './payment-plan';

const courses = ['Microneedling Course', 'Complete Injectables Package'];

function renderPlan(contact = EMPTY_CONTACT) {
  render(<PaymentPlan courses={courses} contact={contact} />);
}

async function openForm() {
  await userEvent.click(screen.getByRole('button', { name: 'Ask about a payment plan' }));
  return screen.getByRole('form', { name: 'Payment plan request' });
}

describe('PaymentPlan', () => {
  it('says what a payment plan is and opens the form from the prompt', async () => {
    renderPlan();
    expect(screen.getByRole('heading', { name: 'Spread the cost with a payment plan' })).toBeInTheDocument();
    expect(screen.getByText(/without interest and without credit checks/).textContent).toContain('within 2 hours during business hours');
    expect(screen.queryByRole('form')).toBeNull();
    await openForm();
    expect(document.activeElement).toBe(screen.getByLabelText(/First name/));
  });

  it('requires all four fields with the spec’s messages', async () => {
    const api = stubApi({});
    renderPlan();
    await openForm();
    await userEvent.click(screen.getByRole('button', { name: 'Request a payment plan' }));
    for (const message of ['Name is required', 'Last name is required', 'Email is required', 'Phone number is required']) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/Phone number/)).toHaveAccessibleDescription('Phone number is required');
    expect(document.activeElement).toBe(screen.getByLabelText(/First name/));
    expect(api.calls).toEqual([]);
  });

  it('sends the details with the courses and shows Details Received', async () => {
    const api = stubApi({ 'POST /api/callback/': () => jsonResponse(200, { success: true }) });
    renderPlan({ name: 'Amara', surname: 'Okafor', email: 'amara@example.com', phone: '' });
    await openForm();
    expect((screen.getByLabelText<HTMLInputElement>(/Email/)).value).toBe('amara@example.com');
    await userEvent.type(screen.getByLabelText(/Phone number/), '07700 900123');
    await userEvent.click(screen.getByRole('button', { name: 'Request a payment plan' }));
    expect(await screen.findByText('Details Received')).toBeInTheDocument();
    expect(screen.queryByRole('form')).toBeNull();
    expect(api.calls).toEqual([{
      route: 'POST /api/callback/',
      body: {
        first_name: 'Amara', last_name: 'Okafor', email: 'amara@example.com', phone_number: '07700 900123',
        courses, type: 'finance',
      },
    }]);
  });

  it.each([
    ['the server refuses', () => jsonResponse(500, { error: { code: 'internal', message: 'Something went wrong' } })],
    ['the answer has no success', () => jsonResponse(200, { success: false })],
    ['the network fails', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('asks to try again when %s, keeping what was typed', async (_case, answer) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({ 'POST /api/callback/': answer });
    renderPlan({ name: 'Amara', surname: 'Okafor', email: 'amara@example.com', phone: '07700 900123' });
    await openForm();
    await userEvent.click(screen.getByRole('button', { name: 'Request a payment plan' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Error processing request, Please try again');
    expect((screen.getByLabelText<HTMLInputElement>(/Last name/)).value).toBe('Okafor');
  });

  it('shows the server’s message when it asks to slow down', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({ 'POST /api/callback/': tooManyRequests });
    renderPlan({ name: 'Amara', surname: 'Okafor', email: 'amara@example.com', phone: '07700 900123' });
    await openForm();
    await userEvent.click(screen.getByRole('button', { name: 'Request a payment plan' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SLOW_DOWN);
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '../../test/memory-router';
import { expect, vi } from 'vitest';
import type { AuthSession } from '../../generated/AuthSession';
import type { CheckoutLine } from '../../generated/CheckoutLine';
import type { CheckoutPage as CheckoutPageData } from '../../generated/CheckoutPage';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { amaraUserDataAnswer, signedOut } from '../../test/auth-fixtures';
import { selected } from '../../test/checkout-fixtures';
import { AuthProvider } from '../../lib/auth';
import { BasketProvider } from '../../lib/basket';
import { SELECTED_COURSES_KEY, type SelectedCourse } from '../../lib/basket-items';
import { CheckoutPage } from './checkout-page';

// What the checkout page's tests share, one file to a topic: the page with
// its providers, the site's API stubbed, and the steps of a buyer.
const sandboxPage: CheckoutPageData = { gateway: 'sandbox', publishableKey: null };
export const stripePage: CheckoutPageData = { gateway: 'stripe', publishableKey: 'pk_test_1' };
export const intent = { client_secret: 'pi_1_secret_abc', id: 'pi_1' };
export const quote = { subtotal: 79500, discount: 0, total: 79500, deposit: 10000, balance: 69500 };

export function renderCheckout(lines: CheckoutLine[], { path = '/checkout/', page = sandboxPage, today = '2026-11-26' } = {}) {
  sessionStorage.setItem(SELECTED_COURSES_KEY, JSON.stringify(lines.map(selected)));
  render(
    <MemoryRouter initialEntries={[path]}>
      <AuthProvider>
        <BasketProvider>
          <CheckoutPage page={page} today={today} />
        </BasketProvider>
      </AuthProvider>
    </MemoryRouter>,
  );
}

/** The site's API answering `answers`, for a visitor signed out unless `session` says otherwise. */
export function stubSite(answers: Record<string, Answer>, session: AuthSession = signedOut) {
  return stubApi({ 'GET /api/auth/session': () => jsonResponse(200, session), ...amaraUserDataAnswer, ...answers });
}

/** The catalogue answering for `lines` and a booking-fee intent, plus `more` calls. */
export function checkoutApi(lines: CheckoutLine[], more: Record<string, Answer> = {}, session: AuthSession = signedOut) {
  return stubSite({
    'POST /api/checkout/basket': () => jsonResponse(200, { lines, removed: [] }),
    'POST /api/checkout/': () => jsonResponse(200, intent),
    ...more,
  }, session);
}

export const storedCourses = () => JSON.parse(sessionStorage.getItem(SELECTED_COURSES_KEY) ?? '[]') as SelectedCourse[];
export const totalOf = (label: string) => screen.getByText(label).nextElementSibling!.textContent;
export const payButton = () => screen.getByRole('button', { name: /^Pay / });

export async function ready() {
  await screen.findByRole('heading', { name: 'Your selected courses' });
  await vi.waitFor(() => expect(screen.queryByText('Preparing your checkout')).toBeNull());
}

export async function fillContact() {
  await userEvent.type(screen.getByLabelText(/First name/), 'Amara');
  await userEvent.type(screen.getByLabelText(/Last name/), 'Okafor');
  await userEvent.type(screen.getByLabelText(/Email/), 'amara@example.com');
  await userEvent.type(screen.getByLabelText(/Phone number/), '07700 900123');
}

/** Ticks the terms and every course's entry requirements, as a buyer agreeing does. */
export async function agree() {
  for (const box of screen.queryAllByRole('checkbox', { name: /^I meet the entry requirements of / })) await userEvent.click(box);
  await userEvent.click(screen.getByRole('checkbox', { name: 'I accept the terms and conditions, including the cancellation policy.' }));
}

export async function fillCard(number: string) {
  await userEvent.type(screen.getByLabelText(/Card number/), number);
  await userEvent.type(screen.getByLabelText(/Expiry/), '12 / 34');
  await userEvent.type(screen.getByLabelText(/Security code/), '123');
}

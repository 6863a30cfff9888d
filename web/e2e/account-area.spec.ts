import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, hydrated, test } from './fixtures';
import {
  checkoutWith, confirmEmail, createAccount, expectSignedInAccount, freshEmail, PASSWORD, payBookingFee, signIn, signUp,
  STUDENT,
} from './accounts';

// Decision 008: the account area, which reads what the signed-in student
// has booked.

const COMPLICATIONS = '/courses/cpd/aesthetic-complications/';

/** Signs up in the page, which signs in, and confirms the mailed link. */
async function signUpAndConfirm(page: Page, email: string) {
  await signUp(page, email);
  await expectSignedInAccount(page, email);
  await confirmEmail(page, email);
}

test('the account area asks a visitor to sign in and brings them back afterwards', async ({ page, request }) => {
  const email = freshEmail();
  await createAccount(request, email);
  await page.goto('/account/');
  await hydrated(page);
  const link = page.getByRole('main').getByRole('link', { name: 'Sign in' });
  await expect(link).toHaveAttribute('href', '/sign-in/?next=/account/');
  await expectNoAxeViolations(page);
  await link.click();
  await expect(page).toHaveURL('/sign-in/?next=/account/');
  await signIn(page, email, PASSWORD);
  await expectSignedInAccount(page, email);
});

test('a signed-in student’s details fill the checkout, and the booking shows in their account', async ({ page }) => {
  const email = freshEmail();
  await signUpAndConfirm(page, email);
  await expectSignedInAccount(page, email);

  const course = await page.request.get(`/api/page-data?path=${encodeURIComponent(COMPLICATIONS)}`);
  const { title } = ((await course.json()) as { page: { title: string } }).page;
  const form = await checkoutWith(page, COMPLICATIONS);
  await expect(form.getByLabel('First name')).toHaveValue(STUDENT.first);
  await expect(form.getByLabel('Last name')).toHaveValue(STUDENT.last);
  await expect(form.getByLabel('Email')).toHaveValue(email);
  await expect(form.getByLabel('Phone number')).toHaveValue('+447700900456');
  await payBookingFee(page, form);

  await page.goto('/account/bookings/');
  await hydrated(page);
  const bookings = page.getByRole('region', { name: 'Bookings' });
  await expect(bookings.getByRole('link', { name: title })).toBeVisible();
  await expect(bookings.getByText('Booking fee paid')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('navigation', { name: 'Your account' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('region', { name: 'Payments' }).getByRole('cell', { name: 'Card' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Your account' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('list', { name: 'Your next sessions' }).getByRole('link', { name: title })).toBeVisible();
  await expectNoAxeViolations(page);
});

import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { agreeToAll, expect, hydrated, mailedLink } from './fixtures';

// What the account tests share (decision 008): a student's details, an
// account made outside the browser, the steps of signing up, confirming
// the email and signing in, and booking a course with its booking fee.

export const PASSWORD = 'correct horse battery';
export const STUDENT = { first: 'Priya', last: 'Shah', phone: '07700 900456' };

/** An address no other test (or earlier run against the same database) has used. */
export const freshEmail = () => `student-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export const accountLink = (page: Page) => page.getByRole('banner').getByRole('link', { name: 'Your account' });
export const signUpForm = (page: Page) => page.getByRole('form', { name: 'Create your account' });
export const signInForm = (page: Page) => page.getByRole('form', { name: 'Sign in' });
export const checkYourEmail = (page: Page) => page.getByRole('heading', { level: 1, name: 'Check your email' });

/** An account made and confirmed outside this browser, so the page's session stays signed out. */
export async function createAccount(request: APIRequestContext, email: string) {
  const signUp = await request.post('/api/auth/sign-up', {
    data: { email, password: PASSWORD, first_name: STUDENT.first, last_name: STUDENT.last, phone: STUDENT.phone },
  });
  expect(signUp.status()).toBe(201);
  const token = new URLSearchParams((await mailedLink(request, email, '/verify-email/')).split('?')[1]).get('token');
  expect((await request.post('/api/auth/verify', { data: { token, password: PASSWORD } })).status()).toBe(200);
}

export async function signUp(page: Page, email: string) {
  await page.goto('/sign-up/');
  await hydrated(page);
  const form = signUpForm(page);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByLabel('First name').fill(STUDENT.first);
  await form.getByLabel('Last name').fill(STUDENT.last);
  await form.getByLabel('Phone number').fill(STUDENT.phone);
  await form.getByRole('button', { name: 'Create account' }).click();
}

/** Opens the mailed link and confirms it with the password chosen at sign-up, which signs in. */
export async function confirmEmail(page: Page, email: string, password = PASSWORD) {
  await page.goto(await mailedLink(page.request, email, '/verify-email/'));
  await hydrated(page);
  const form = page.getByRole('form', { name: 'Confirm your email address' });
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Confirm my email' }).click();
}

export async function signIn(page: Page, email: string, password: string) {
  const form = signInForm(page);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

export async function expectSignedInAccount(page: Page, email: string) {
  await expect(page).toHaveURL('/account/');
  await expect(page.getByText(`${STUDENT.first} ${STUDENT.last}`)).toBeVisible();
  await expect(page.getByText(email, { exact: true }).first()).toBeVisible();
  await expect(accountLink(page)).toHaveAttribute('href', '/account/');
}

/** Puts `course` in the basket and opens the checkout: its form, ready to fill. */
export async function checkoutWith(page: Page, course: string): Promise<Locator> {
  await page.goto(course);
  await hydrated(page);
  await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();
  await page.goto('/checkout/');
  await hydrated(page);
  await expect(page.getByText('Preparing your checkout')).toBeHidden();
  return page.getByRole('form', { name: 'Enrol and pay' });
}

/** Pays the booking fee in the checkout's `form` by sandbox `card` (one the bank accepts unless named), agreeing to everything; the order's id once it is confirmed. */
export async function payBookingFee(page: Page, form: Locator, card = '4242 4242 4242 4242'): Promise<string> {
  await form.getByLabel('Card number').fill(card);
  await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await form.getByLabel('Security code').fill('123');
  await agreeToAll(form);
  await form.getByRole('button', { name: /^Pay booking fee/ }).click();
  await page.waitForURL(/\/enrolment\/[0-9a-f-]+/);
  await expect(page.getByRole('heading', { level: 1, name: "You're enrolled" })).toBeVisible({ timeout: 15_000 });
  return new URL(page.url()).pathname.replace('/enrolment/', '');
}

/** A student with an account made outside the browser, signed in in `page`: her email. */
export async function signedInStudent(page: Page, request: APIRequestContext): Promise<string> {
  const email = freshEmail();
  await createAccount(request, email);
  await page.goto('/sign-in/?next=/account/');
  await hydrated(page);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL('/account/');
  return email;
}

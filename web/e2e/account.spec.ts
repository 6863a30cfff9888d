import type { APIRequestContext, Page } from '@playwright/test';
import { allowConsoleErrors, expect, expectNoAxeViolations, hydrated, test } from './fixtures';

// Decision 008: sign-up, sign-in and sign-out against the built-in accounts,
// and the account area that reads what the signed-in student has booked.

const PASSWORD = 'correct horse battery';
const STUDENT = { first: 'Priya', last: 'Shah', phone: '07700 900456' };
const COMPLICATIONS = '/courses/cpd/aesthetic-complications/';

/** An address no other test (or earlier run against the same database) has used. */
const freshEmail = () => `student-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

const accountLink = (page: Page) => page.getByRole('banner').getByRole('link', { name: 'Your account' });
const signUpForm = (page: Page) => page.getByRole('form', { name: 'Create your account' });
const signInForm = (page: Page) => page.getByRole('form', { name: 'Sign in' });

/** An account made outside this browser, so the page's session stays signed out. */
async function createAccount(request: APIRequestContext, email: string) {
  const response = await request.post('/api/auth/sign-up', {
    data: { email, password: PASSWORD, first_name: STUDENT.first, last_name: STUDENT.last, phone: STUDENT.phone },
  });
  expect(response.status()).toBe(201);
}

async function signUp(page: Page, email: string) {
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

async function signIn(page: Page, email: string, password: string) {
  const form = signInForm(page);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

async function expectSignedInAccount(page: Page, email: string) {
  await expect(page).toHaveURL('/account/');
  await expect(page.getByText(`${STUDENT.first} ${STUDENT.last}`)).toBeVisible();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await expect(accountLink(page)).toHaveAttribute('href', '/account/');
}

test('a new student signs up, lands on their account, signs out to the home page and signs in again', async ({ page }) => {
  const email = freshEmail();
  await signUp(page, email);
  await expectSignedInAccount(page, email);
  await expect(page.getByRole('heading', { name: 'Your bookings' })).toBeVisible();
  await expect(page.getByText('You have no bookings yet.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your payments' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your online courses' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/');
  await expect(accountLink(page)).toHaveAttribute('href', '/sign-in/');

  await page.goto('/sign-in/');
  await hydrated(page);
  await expect(accountLink(page)).toHaveAttribute('href', '/sign-in/');
  await signIn(page, email, PASSWORD);
  await expectSignedInAccount(page, email);

  // The session outlives a reload: it is in the cookie, not in the page.
  await page.reload();
  await hydrated(page);
  await expect(page.getByText(`${STUDENT.first} ${STUDENT.last}`)).toBeVisible();
});

test('a wrong password says the email or password is incorrect', async ({ page, request, consoleErrors }) => {
  const email = freshEmail();
  await createAccount(request, email);
  await page.goto('/sign-in/');
  await hydrated(page);
  await expectNoAxeViolations(page);
  await signIn(page, email, 'not the password');
  await expect(signInForm(page).getByRole('alert')).toHaveText('Email or password is incorrect.');
  await expect(page).toHaveURL('/sign-in/');
  await expect(signInForm(page).getByLabel('Email')).toHaveValue(email);
  await expectNoAxeViolations(page);
  allowConsoleErrors(consoleErrors, /status of 401 .*\/api\/auth\/sign-in\)$/);
});

test('sign-up says what each field needs, and when the email already has an account', async ({ page, request, consoleErrors }) => {
  await page.goto('/sign-up/');
  await hydrated(page);
  await expectNoAxeViolations(page);
  const form = signUpForm(page);
  await form.getByRole('button', { name: 'Create account' }).click();
  for (const message of [
    'Email is required', 'Password is required', 'First name is required', 'Last name is required', 'Phone number is required',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(form.getByLabel('Email')).toBeFocused();
  await expectNoAxeViolations(page);

  await form.getByLabel('Email').fill('priya@');
  await form.getByLabel('Password').fill('too short');
  await form.getByLabel('Phone number').fill('phone me');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByText('Enter a valid email address')).toBeVisible();
  await expect(form.getByText('Use at least 10 characters')).toBeVisible();
  await expect(form.getByText('Enter a valid phone number')).toBeVisible();
  await expect(form.getByLabel('Password')).toHaveValue('too short');

  const taken = freshEmail();
  await createAccount(request, taken);
  await signUp(page, taken);
  await expect(form.getByRole('alert')).toHaveText(/^An account with this email already exists/);
  await expect(page).toHaveURL('/sign-up/');
  await expect(form.getByLabel('First name')).toHaveValue(STUDENT.first);
  allowConsoleErrors(consoleErrors, /status of 409 .*\/api\/auth\/sign-up\)$/);
});

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
  await signUp(page, email);
  await expectSignedInAccount(page, email);

  const course = await page.request.get(`/api/page-data?path=${encodeURIComponent(COMPLICATIONS)}`);
  const { title } = ((await course.json()) as { page: { title: string } }).page;
  await page.goto(COMPLICATIONS);
  await hydrated(page);
  await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();
  await page.goto('/checkout/');
  await hydrated(page);
  await expect(page.getByText('Preparing your checkout')).toBeHidden();
  const form = page.getByRole('form', { name: 'Enrol and pay' });
  await expect(form.getByLabel('First name')).toHaveValue(STUDENT.first);
  await expect(form.getByLabel('Last name')).toHaveValue(STUDENT.last);
  await expect(form.getByLabel('Email')).toHaveValue(email);
  await expect(form.getByLabel('Phone number')).toHaveValue('+447700900456');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await form.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: /^Pay booking fee/ }).click();
  await page.waitForURL(/\/enrolment\/[0-9a-f-]+/);
  await expect(page.getByRole('heading', { level: 1, name: "You're enrolled" })).toBeVisible({ timeout: 15_000 });

  await page.goto('/account/');
  await hydrated(page);
  const bookings = page.getByRole('region', { name: 'Your bookings' });
  await expect(bookings.getByRole('link', { name: title })).toBeVisible();
  await expect(bookings.getByText('Booking fee paid')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your payments' }).getByRole('cell', { name: 'Card' })).toBeVisible();
  await expectNoAxeViolations(page);
});

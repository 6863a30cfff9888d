import type { Page } from '@playwright/test';
import {
  allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, mailedLink, test,
} from './fixtures';
import {
  accountLink, checkYourEmail, confirmEmail, createAccount, expectSignedInAccount, freshEmail, PASSWORD, signIn, signInForm, signUp, signUpForm, STUDENT,
} from './accounts';

// Decision 008: sign-up, which signs in at once, the mailed link that
// proves the email (decision 009), sign-in, sign-out and a forgotten
// password, against the built-in accounts. The account area is
// account-area.spec.ts.

const NEW_PASSWORD = 'a brand new pass phrase';
const WRONG_PASSWORD = 'Email or password is incorrect.';

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/');
  await expect(accountLink(page)).toHaveAttribute('href', '/sign-in/');
}

for (const width of [390, 1366]) {
  test(`a new student signs up and is signed in at once; the account asks to confirm the email, mails the link again, and the link confirms it (${width}px)`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const email = freshEmail();
    await signUp(page, email);
    await expect(page.getByRole('status').filter({ hasText: `Welcome: your account is ready. We have sent a link to ${email}: open it to confirm your email address.` })).toBeVisible();
    await expectSignedInAccount(page, email);
    const unconfirmed = page.getByRole('region', { name: 'Please confirm your email address' });
    await expect(unconfirmed).toContainText(`We have sent a link to ${email}. Open it to confirm your address`);
    await expect(unconfirmed).toBeInViewport();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/shots/account-unconfirmed-${width}.png`, fullPage: true });

    // The first link is lost: the account sends another, and says so (not as an error).
    const first = await mailedLink(page.request, email, '/verify-email/');
    await unconfirmed.getByRole('button', { name: 'Send the link again' }).click();
    const sent = unconfirmed.getByRole('status');
    await expect(sent).toHaveText(`We have sent a new link to ${email}. It works for two days.`);
    await expect(sent).toHaveCSS('color', 'rgb(29, 107, 58)');
    await expect.poll(() => mailedLink(page.request, email, '/verify-email/')).not.toBe(first);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/shots/account-link-sent-${width}.png` });

    // Someone who opens the link without the password chosen cannot confirm it.
    await confirmEmail(page, email, 'not the password');
    await expect(page.getByRole('form', { name: 'Confirm your email address' }).getByRole('alert')).toHaveText(
      'That is not the password you chose when you signed up. If you did not sign up, ignore this link.',
    );
    await confirmEmail(page, email);
    await expect(page.getByRole('status').filter({ hasText: 'Your email address is confirmed, and you are signed in.' })).toBeVisible();
    await expectSignedInAccount(page, email);
    await expect(page.getByRole('region', { name: 'Please confirm your email address' })).toHaveCount(0);
    await expect(page.getByText('You have no sessions booked.')).toBeVisible();
    await expectNoAxeViolations(page);

    await signOut(page);
    await page.goto('/sign-in/');
    await hydrated(page);
    await signIn(page, email, 'not the password');
    await expect(signInForm(page).getByRole('alert')).toHaveText(WRONG_PASSWORD);
    await expect(signInForm(page).getByLabel('Email')).toHaveValue(email);
    await signIn(page, email, PASSWORD);
    await expectSignedInAccount(page, email);

    // The session outlives a reload: it is in the cookie, not in the page. The notice does not come back.
    await page.reload();
    await hydrated(page);
    await expect(page.getByText(`${STUDENT.first} ${STUDENT.last}`)).toBeVisible();
    await expect(page.getByText('Your email address is confirmed')).toBeHidden();
    allowConsoleErrors(consoleErrors, /status of 401 .*\/api\/auth\/(sign-in|verify)\)$/);
  });
}

test('an unconfirmed account signs in again, its old link is refused once used, and a new one from the account works', async ({ page, consoleErrors }) => {
  const email = freshEmail();
  await signUp(page, email);
  await expectSignedInAccount(page, email);
  await signOut(page);
  await page.goto('/sign-in/');
  await hydrated(page);
  await signIn(page, email, PASSWORD);
  await expectSignedInAccount(page, email);
  await expect(page.getByRole('region', { name: 'Please confirm your email address' })).toBeVisible();

  const first = await mailedLink(page.request, email, '/verify-email/');
  await confirmEmail(page, email);
  await expectSignedInAccount(page, email);
  await signOut(page);
  await page.goto(first);
  await hydrated(page);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Confirm my email' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link has expired or was already used. Sign in and ask for a new one in your account.');
  await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in/');
  expect(new URL(page.url()).search).toBe('');
  await expectNoAxeViolations(page);
  allowConsoleErrors(consoleErrors, /status of 422 .*\/api\/auth\/verify\)$/);
});

test('a forgotten password: the mailed link sets a new one and signs in', async ({ page, request, consoleErrors }) => {
  const email = freshEmail();
  await createAccount(request, email);
  await page.goto('/sign-in/');
  await hydrated(page);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL('/forgot-password/');
  const form = page.getByRole('form', { name: 'Reset your password' });
  await expectNoAxeViolations(page);

  // The answer reads the same for an address with no account.
  for (const who of [`nobody-${email}`, email]) {
    await page.goto('/forgot-password/');
    await hydrated(page);
    await form.getByLabel('Email').fill(who);
    await form.getByRole('button', { name: 'Email me a link' }).click();
    await expect(checkYourEmail(page)).toBeFocused();
    await expect(page.getByRole('main')).toContainText(
      `If an account exists for ${who}, we have sent it a link to choose a new password. The link works for an hour.`,
    );
  }
  await expectNoAxeViolations(page);

  await page.goto(await mailedLink(request, email, '/reset-password/'));
  await hydrated(page);
  expect(new URL(page.url()).search).toBe('');
  const reset = page.getByRole('form', { name: 'Choose a new password' });
  await reset.getByLabel('New password').fill('too short');
  await reset.getByRole('button', { name: 'Save password' }).click();
  await expect(reset.getByText('Use at least 10 characters')).toBeVisible();
  await expect(reset.getByLabel('New password')).toBeFocused();
  await expectNoAxeViolations(page);
  await reset.getByLabel('New password').fill(NEW_PASSWORD);
  await reset.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your new password is saved, and you are signed in.' })).toBeVisible();
  await expectSignedInAccount(page, email);

  await signOut(page);
  await page.goto('/sign-in/');
  await hydrated(page);
  await signIn(page, email, PASSWORD);
  await expect(signInForm(page).getByRole('alert')).toHaveText(WRONG_PASSWORD);
  await signIn(page, email, NEW_PASSWORD);
  await expectSignedInAccount(page, email);
  allowConsoleErrors(consoleErrors, /status of 401 .*\/api\/auth\/sign-in\)$/);
});

test('sign-up says what each field needs; an email with an account signs nobody in and gets a password link', async ({ page, request }) => {
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
  await expect(checkYourEmail(page)).toBeFocused();
  await expect(page.getByRole('main')).toContainText(`There is already an account for ${taken}. We have sent an email there with a link to choose a password`);
  await expect(accountLink(page)).toHaveAttribute('href', '/sign-in/');
  await expectNoAxeViolations(page);
  expect(await mailedLink(request, taken, '/reset-password/')).toMatch(/^\/reset-password\/\?token=\w+$/);
});

test('the account pages reflow on a 320px screen with no sideways scrolling', async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const pages: [string, string][] = [
    ['/sign-in/', 'Sign in'],
    ['/sign-up/', 'Create your account'],
    ['/forgot-password/', 'Reset your password'],
    ['/reset-password/?token=not-a-real-token', 'Choose a new password'],
    ['/verify-email/?token=not-a-real-token', 'Confirm your email address'],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Confirm my email' }).click();
  await expect(page.getByRole('alert')).toHaveText(/^This link has expired or was already used\./);
  await expectNoSidewaysScroll(page);
  allowConsoleErrors(consoleErrors, /status of 422 .*\/api\/auth\/verify\)$/);
});

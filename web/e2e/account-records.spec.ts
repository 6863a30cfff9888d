import type { Page } from '@playwright/test';
import { allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, mailedLink, test } from './fixtures';
import { createAccount, freshEmail, PASSWORD, signIn } from './accounts';

// The account area of a student with records (the demo student
// of ENROL_DEMO_STUDENTS): every part, keyboard and axe clean, and what a
// student does there: answer a form, send a document, book a call, change
// a password. Certificates have their own spec.

const AMELIA = { email: 'amelia@student.example', password: 'training day 2027' };
const SECTIONS = ['Overview', 'Bookings', 'Online courses', 'Payments', 'Certificates', 'Forms', 'Documents', 'Intake call', 'Profile'];

async function signInAsAmelia(page: Page, next = '/account/') {
  await page.goto(`/sign-in/?next=${next}`);
  await hydrated(page);
  await signIn(page, AMELIA.email, AMELIA.password);
  await expect(page).toHaveURL(next);
}

// The tests change the one demo student's records, so they run in order.
test.describe.configure({ mode: 'serial' });

const menu = (page: Page) => page.getByRole('navigation', { name: 'Your account' });
const section = (page: Page, name: string) => page.getByRole('region', { name });

test('every part of the account shows the student’s records, by keyboard, on a phone, with no axe violations', async ({ page }) => {
  // Nine parts, each checked by axe.
  test.slow();
  await page.setViewportSize({ width: 320, height: 720 });
  await signInAsAmelia(page);
  await expect(page.getByRole('list', { name: 'Your next sessions' }).getByRole('listitem')).toHaveCount(1);
  // Booked on a date within 14 days: the balance is due now, never by a day already past.
  await expect(section(page, 'Overview').getByText(/due now/)).toBeVisible();
  await expect(section(page, 'Overview').getByRole('link', { name: /^Medical form: / })).toBeVisible();
  for (const name of SECTIONS) {
    const link = menu(page).getByRole('link', { name });
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(link).toHaveAttribute('aria-current', 'page');
    await expect(section(page, name)).toBeVisible();
    await expect(section(page, name).getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }
});

test('a student fills in and saves her medical form', async ({ page }) => {
  await signInAsAmelia(page, '/account/forms/');
  await section(page, 'Forms').getByRole('link', { name: /^Medical form: / }).click();
  const form = page.getByRole('form', { name: /^Medical form: / });
  await form.getByRole('button', { name: 'Submit form' }).click();
  await expect(form.getByLabel(/medical condition/)).toBeFocused();
  await form.getByLabel(/medical condition/).selectOption('No');
  await form.getByLabel(/allergies/).selectOption('Yes');
  await form.getByLabel(/pregnant/).selectOption('No');
  await form.getByLabel(/Medication/).fill('None');
  await form.getByRole('button', { name: 'Save for later' }).click();
  await expect(form.getByText('Your answers are saved. You can finish the form later.')).toBeVisible();
  await form.getByLabel(/Emergency contact/).fill('Tom Hart 07700 900321');
  await form.getByRole('button', { name: 'Submit form' }).click();
  await expect(page.getByText(/is complete\.$/)).toBeVisible();
  await menu(page).getByRole('link', { name: 'Forms' }).click();
  await expect(section(page, 'Forms').getByRole('listitem').filter({ hasText: 'Medical form' })).toContainText('Complete');
  await menu(page).getByRole('link', { name: 'Overview' }).click();
  // Whether her Level 2 certificate is still to send depends on the test beside this one: only the form is asserted.
  await expect(section(page, 'Overview').getByRole('heading', { name: 'Still to do before your training' })).toBeVisible();
  await expect(section(page, 'Overview').getByRole('link', { name: /^Medical form/ })).toHaveCount(0);
});

test('a student sends her Level 2 certificate and sees it listed; a page is refused', async ({ page }) => {
  await signInAsAmelia(page, '/account/documents/');
  const evidence = section(page, 'Documents').getByRole('region', { name: 'Level 2 certificate' });
  const input = evidence.getByLabel('Choose a file for Level 2 certificate');
  await input.setInputFiles({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<script>alert(1)</script>') });
  await evidence.getByRole('button', { name: 'Send file' }).click();
  await expect(evidence.getByRole('alert')).toHaveText('Please send a PDF or an image (JPEG, PNG or WebP).');
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  await input.setInputFiles({ name: 'level-2.pdf', mimeType: 'application/pdf', buffer: pdf });
  await evidence.getByRole('button', { name: 'Send file' }).click();
  const link = evidence.getByRole('link', { name: 'level-2.pdf' });
  await expect(link).toBeVisible();
  await expect(evidence.getByText('Received')).toBeVisible();
  // Success is news, in green, not an error in red.
  const sent = evidence.getByRole('status');
  await expect(sent).toHaveText('level-2.pdf is sent.');
  await expect(sent).toHaveCSS('color', 'rgb(29, 107, 58)');
  await expect(evidence.getByRole('alert')).toHaveText('');
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await sent.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/shots/account-document-sent-${width}.png` });
  }
  const download = await page.request.get((await link.getAttribute('href')) ?? '');
  expect(download.status()).toBe(200);
  expect(await download.body()).toEqual(pdf);
  // Another browser, signed out, gets nothing.
  const stranger = await page.context().browser()!.newContext();
  expect((await stranger.request.get(`${new URL(page.url()).origin}${await link.getAttribute('href')}`)).status()).toBe(401);
  await stranger.close();
});

for (const width of [390, 1366]) {
  test(`a student moves her intake call to another time, cancels it only once she says yes, and books another (${width}px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await signInAsAmelia(page, '/account/intake-call/');
    const call = section(page, 'Intake call');
    // The demo student has a call booked (each run leaves one): she moves it.
    const booked = call.getByText(/^Your call is booked for /);
    const before = await booked.textContent();
    await call.getByRole('button', { name: 'Change the time' }).click();
    const choose = call.getByRole('form', { name: 'Choose a new time' });
    const day = choose.getByLabel('Day');
    await day.selectOption({ index: 3 });
    const chosen = (await day.locator('option:checked').textContent()) ?? '';
    const time = await choose.getByRole('radio').nth(2).getAttribute('value');
    await choose.getByRole('radio').nth(2).check();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/shots/intake-change-${width}.png`, fullPage: true });
    await choose.getByRole('button', { name: 'Move the call' }).click();
    await expect(call.getByRole('status')).toHaveText(`Your call is moved to ${chosen} at ${time} (UK time).`);
    await expect(booked).toHaveText(`Your call is booked for ${chosen} at ${time} (UK time). An adviser will call the number in your profile.`);
    expect(await booked.textContent()).not.toBe(before);

    // Cancelling asks first; keeping the call changes nothing.
    await call.getByRole('button', { name: 'Cancel this call' }).click();
    const confirm = call.getByRole('region', { name: 'Cancel this call?' });
    await expect(confirm).toContainText(`Your time, ${chosen} at ${time}, is given to someone else.`);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/shots/intake-cancel-${width}.png`, fullPage: true });
    await confirm.getByRole('button', { name: 'Keep my call' }).click();
    await expect(booked).toBeVisible();
    await call.getByRole('button', { name: 'Cancel this call' }).click();
    await confirm.getByRole('button', { name: 'Yes, cancel the call' }).click();
    await expect(call.getByRole('status').filter({ hasText: 'Your call is cancelled.' })).toBeVisible();

    await call.getByLabel('Day').selectOption({ index: 2 });
    await call.getByRole('radio').nth(1).check();
    await call.getByRole('button', { name: 'Book the call' }).click();
    await expect(booked).toBeVisible();
    await expectNoAxeViolations(page);
  });
}

test('a student changes her phone number, her email (proven by the mailed link) and her password', async ({ page, request, consoleErrors }) => {
  // Changing a password signs out the account's other browsers: a student of her own.
  const email = freshEmail();
  await createAccount(request, email);
  await page.goto('/sign-in/?next=/account/profile/');
  await hydrated(page);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL('/account/profile/');
  const details = page.getByRole('form', { name: 'Your details' });
  await details.getByLabel('Phone number').fill('07700 900777');
  await details.getByRole('button', { name: 'Save details' }).click();
  await expect(details.getByText('Your details are saved.')).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('form', { name: 'Your details' }).getByLabel('Phone number')).toHaveValue('+447700900777');

  const newEmail = freshEmail();
  const emailForm = page.getByRole('form', { name: 'Change your email' });
  await emailForm.getByLabel('New email address').fill(newEmail);
  await emailForm.getByLabel('Your password').fill(PASSWORD);
  await emailForm.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByText(`We have sent a link to ${newEmail}.`, { exact: false })).toBeVisible();
  await page.goto(await mailedLink(request, newEmail, '/account/profile/'));
  await hydrated(page);
  await page.getByRole('button', { name: 'Use my new email' }).click();
  await expect(page.getByText('Your email address is changed.', { exact: false })).toBeVisible();
  await expect(page.getByText(newEmail, { exact: true })).toBeVisible();

  const password = page.getByRole('form', { name: 'Change your password' });
  await password.getByLabel('Current password').fill('not my password');
  await password.getByLabel('New password').fill('a brand new pass phrase');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('Your current password is not right')).toBeVisible();
  allowConsoleErrors(consoleErrors, /status of 422 .*\/api\/account\/password\)$/);
  await password.getByLabel('Current password').fill(PASSWORD);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password is changed.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/');
  await page.goto('/sign-in/');
  await hydrated(page);
  await signIn(page, newEmail, 'a brand new pass phrase');
  await expect(page).toHaveURL('/account/');
});

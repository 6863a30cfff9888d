import type { Browser, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, mailedLink, test } from './fixtures';
import { addOwner, freshCode } from './staff';

// The back office (issue 14, decision 017) in a real browser against the
// real server: the first owner from the command line, staff added in the
// browser who sign in with a second factor, sessions and rosters run by
// staff, and a tutor whom the server refuses everything but their roster.

const PASSWORD = 'a long staff password';

/** Finishes set-up from a set-up link: the TOTP secret the page showed. */
async function setUp(page: Page, link: string): Promise<string> {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your account' })).toBeVisible();
  const secret = (await page.locator('code.secret').textContent())!.trim();
  await expectNoAxeViolations(page);
  await page.getByLabel('Choose a password').fill(PASSWORD);
  await page.getByLabel('Code from your authenticator app').fill(freshCode(secret));
  await page.getByRole('button', { name: 'Finish setting up' }).click();
  return secret;
}

/** Signs in at /admin/sign-in/ with the password and a fresh code. */
async function signIn(page: Page, email: string, secret: string) {
  await page.goto('/admin/sign-in/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Code from your authenticator app').fill(freshCode(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A second browser of its own (its own cookies), as a colleague at another desk. */
async function colleague(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

test('an owner adds staff and a tutor, who set up a second factor; staff open a date; the tutor reads only their roster', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const owner = { email: `owner-${stamp}@college.test`, name: 'Olivia Owner' };
  const staff = { email: `staff-${stamp}@college.test`, name: 'Sasha Staff' };
  const tutor = { email: `tutor-${stamp}@college.test`, name: `Tia Tutor ${stamp}` };

  // The first owner: made on the command line, set up in the browser.
  await setUp(page, addOwner(owner.email, owner.name));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The owner adds a staff member and a tutor; each gets a mailed set-up link.
  await page.getByRole('navigation').getByRole('link', { name: 'Staff' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
  for (const [person, role] of [[staff, 'Staff'], [tutor, 'Tutor']] as const) {
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Name').fill(person.name);
    await page.getByLabel('Role').selectOption({ label: role });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText(person.email)).toBeVisible();
  }
  await expectNoAxeViolations(page);

  const staffPage = await colleague(browser, baseURL);
  const staffSecret = await setUp(staffPage, await mailedLink(request, staff.email, '/admin/setup/'));
  await expect(staffPage.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // Signed out and in again: the password and a new code.
  await staffPage.getByRole('button', { name: 'Sign out' }).click();
  await signIn(staffPage, staff.email, staffSecret);
  await expect(staffPage.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(staffPage.getByRole('navigation').getByRole('link', { name: 'Staff' }), 'staff do not manage staff').toHaveCount(0);

  // Staff open a new date with the tutor; it is on the public calendar at once.
  await staffPage.getByRole('navigation').getByRole('link', { name: 'Sessions' }).click();
  await staffPage.getByRole('link', { name: 'New session' }).click();
  const date = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
  await staffPage.getByLabel('Course').selectOption({ label: 'Chemical Peels Course' });
  await staffPage.getByLabel('Date').fill(date);
  await staffPage.getByLabel('Start time').fill('10:00');
  await staffPage.getByLabel('End time').fill('15:00');
  await staffPage.getByRole('radio', { name: 'On site' }).check();
  await staffPage.getByLabel('Price (£)').fill('650');
  await staffPage.getByLabel('Seats').fill('6');
  await staffPage.getByLabel('Venue').fill('Studio 3');
  await staffPage.getByLabel('Tutor').selectOption({ label: tutor.name });
  await expectNoAxeViolations(staffPage);
  await staffPage.getByRole('button', { name: 'Create the session' }).click();
  await expect(staffPage.getByText('Session created.')).toBeVisible();
  const calendar = await page.context().newPage();
  await calendar.goto('/training-course-calendar/');
  const month = new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric' });
  const listed = calendar.locator('.calendar-month').filter({ has: calendar.getByRole('heading', { name: month }) });
  await expect(listed.getByText('Chemical Peels Course')).toBeVisible();

  // The tutor sets up and sees only their session's roster; the server refuses the rest.
  const tutorPage = await colleague(browser, baseURL);
  await setUp(tutorPage, await mailedLink(request, tutor.email, '/admin/setup/'));
  await expect(tutorPage.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  const nav = tutorPage.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Orders' })).toHaveCount(0);
  await expect(tutorPage.getByRole('row')).toHaveCount(2);
  for (const path of ['/api/admin/dashboard', '/api/admin/audit', '/api/admin/staff']) {
    const refused = await tutorPage.request.get(path);
    expect(refused.status(), path).toBe(403);
  }
  const opened = await tutorPage.request.post('/api/admin/sessions', { data: {} });
  expect(opened.status()).toBe(403);

  for (const shown of [page, staffPage, tutorPage]) {
    await shown.setViewportSize({ width: 320, height: 640 });
    await expectNoSidewaysScroll(shown);
  }
});

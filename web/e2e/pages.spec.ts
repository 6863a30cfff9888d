import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, hydrated, test } from './fixtures';

/** Runs a step that navigates on the client and waits for the new page. */
async function clientNavigation(page: Page, step: () => Promise<unknown>) {
  const data = page.waitForResponse((r) => r.url().includes('/api/page-data'));
  await step();
  await data;
  await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
}

test('the calendar filters by section and session type', async ({ page }) => {
  await page.goto('/training-course-calendar/');
  await hydrated(page);
  const months = page.locator('.calendar-month h2');
  await expect(months.first()).toHaveText(/^[A-Z][a-z]+ \d{4}$/);
  // Whole months a page at a time: the next page starts at the month the link names.
  const pages = page.getByRole('navigation', { name: 'Calendar pages' });
  const later = pages.getByRole('link', { name: /^Later dates, from / });
  const next = ((await later.textContent()) ?? '').replace('Later dates, from ', '');
  await clientNavigation(page, () => later.click());
  await expect(page).toHaveURL(/\?from=\d{4}-\d{2}$/);
  await expect(months.first()).toHaveText(next);
  await expectNoAxeViolations(page);
  await clientNavigation(page, () => pages.getByRole('link', { name: 'Earlier dates' }).click());
  await expect(months.first()).not.toHaveText(next);
  // Every month with dates is one link away.
  const monthLinks = page.getByRole('navigation', { name: 'Months' }).getByRole('link');
  expect(await monthLinks.count()).toBeGreaterThan(2);
  await clientNavigation(page, () => monthLinks.last().click());
  await expect(months.last()).toHaveText((await monthLinks.last().textContent()) ?? '');
  await expect(pages.getByRole('link', { name: /^Later dates/ })).toHaveCount(0);
  await clientNavigation(page, () => page.getByLabel('Course section').selectOption({ label: 'Hair Courses' }));
  await expect(page).toHaveURL(/section=hair/);
  const sections = await page.locator('.session-course span').allTextContents();
  expect(sections.length).toBeGreaterThan(0);
  expect(new Set(sections)).toEqual(new Set(['Hair Courses']));
  await clientNavigation(page, () => page.getByLabel('Session type').selectOption({ label: 'Virtual' }));
  await expect(page).toHaveURL(/type=virtual/);
  for (const when of await page.locator('.session-when span').allTextContents()) expect(when).toContain('Virtual');
});

test('a section sorts by price on the server and narrows by words in the browser', async ({ page }) => {
  await page.goto('/courses/aesthetics/');
  await hydrated(page);
  await clientNavigation(page, () => page.getByLabel('Sort by').selectOption('price'));
  await expect(page).toHaveURL('/courses/aesthetics/?sort=price');
  const prices = (await page.locator('.course-card .now-price').allTextContents()).map((p) => Number(p.replace(/[£,]/g, '')));
  expect(prices).toEqual([...prices].sort((a, b) => a - b));
  const total = prices.length;
  await page.getByLabel('Filter courses').fill('peel');
  await expect(page.getByRole('status').filter({ hasText: 'Showing' })).toHaveText(new RegExp(`^Showing [1-9]\\d* of ${total} courses$`));
  for (const title of await page.locator('.course-card .card-title').allTextContents()) expect(title.toLowerCase()).toContain('peel');
});

test('the blog pages through its articles', async ({ page }) => {
  await page.goto('/blog/');
  await hydrated(page);
  const pages = page.getByRole('navigation', { name: 'Blog pages' });
  await clientNavigation(page, () => pages.getByRole('link', { name: 'Older articles' }).click());
  await expect(page).toHaveURL('/blog/?page=2');
  await expect(pages.locator('[aria-current="page"]')).toHaveText('2');
  expect(await page.locator('.blog-card').count()).toBeGreaterThan(0);
});

test('the enquiry form shows each message beside its field and keeps what was typed', async ({ page }) => {
  await page.goto('/request-a-callback/');
  await hydrated(page);
  await page.getByLabel('Your name').fill('Amara Okafor');
  await page.getByLabel('Phone number').fill('12');
  await page.getByRole('button', { name: 'Request a callback' }).click();
  await expect(page.getByText('Enter a valid phone number')).toBeVisible();
  await expect(page.getByLabel('Phone number')).toBeFocused();
  await expect(page.getByLabel('Your name')).toHaveValue('Amara Okafor');
  await page.getByLabel('Phone number').fill('07700 900123');
  await page.getByRole('button', { name: 'Request a callback' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'A course adviser will call you back' })).toBeVisible();
  const mailbox = await page.request.get('/dev/mailbox');
  expect(await mailbox.text()).toContain('Amara Okafor');
});

test('the server checks a form again and its messages reach the fields', async ({ page, consoleErrors }) => {
  await page.goto('/contact/');
  await hydrated(page);
  await page.route('**/api/enquiries/contact', async (route) => {
    const body = route.request().postDataJSON() as Record<string, string>;
    await route.continue({ postData: JSON.stringify({ ...body, email: 'not-an-email' }) });
  });
  await page.getByLabel('Your name').fill('Jo Bloggs');
  await page.getByLabel('Email address').fill('jo@example.com');
  await page.getByLabel('Your message').fill('Do you run weekend courses?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await expect(page.getByLabel('Your message')).toHaveValue('Do you run weekend courses?');
  // The browser logs the server's 422 answer; that refusal is the point here.
  expect(consoleErrors).toEqual([expect.stringContaining('status of 422')]);
  consoleErrors.length = 0;
});

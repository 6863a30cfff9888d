import { expect, expectNoAxeViolations, hydrated, mailedLink, test } from './fixtures';
import { freshEmail } from './accounts';

// The footer's newsletter sign-up, confirmed by the mailed link (double opt-in).

test('a visitor signs up in the footer and joins by the mailed link', async ({ page, request }) => {
  const email = freshEmail();
  await page.goto('/about/');
  await hydrated(page);
  const form = page.getByRole('form', { name: 'Newsletter' });
  await form.getByLabel('Your email').fill(email);
  await form.getByRole('checkbox', { name: /Email me news, offers and new course dates/ }).check();
  await form.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('status').filter({ hasText: `open the link we have emailed to ${email}` })).toBeVisible();

  await page.goto(await mailedLink(request, email, '/newsletter/confirm/'));
  await hydrated(page);
  expect(new URL(page.url()).search).toBe('');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You are subscribed.' })).toBeVisible();
});

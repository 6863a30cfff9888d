import type { Page } from '@playwright/test';
import { allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, test } from './fixtures';
import { gradientPng } from './png';
import { STAFF_PASSWORD, addOwner, setUp, setUpKeepingCodes } from './staff';

// The back office's staff tools, as staff meet them at a laptop's width and
// a phone's: content images chosen from the media library (the uploads by
// their own names, and the content pack's images); a discount code's
// sections and courses ticked from lists; a reply mailed to an enquirer
// from the enquiry's page; and the recovery codes set-up shows once, which
// sign in instead of an authenticator code, once each.

const SHOTS = process.env.E2E_SHOTS;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** A new owner, signed in, on the dashboard. */
async function owner(page: Page, name: string): Promise<string> {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@college.test`;
  await setUp(page, addOwner(email, 'Robin Owner'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  return email;
}

async function signIn(page: Page, email: string, code: string) {
  await page.goto('/admin/sign-in/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByLabel('Code from your authenticator app').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

for (const width of [390, 1366]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize({ width, height: 900 }));

    test('an image is chosen for content from the media library, by its own name, by keyboard', async ({ page }) => {
      test.setTimeout(60_000);
      await owner(page, `media-${width}`);
      const name = `salon front ${width}.png`;
      const alt = `The salon's front door, ${width}`;
      await page.goto('/admin/media/');
      await page.getByRole('button', { name: 'Image', exact: true }).setInputFiles({ name, mimeType: 'image/png', buffer: gradientPng(480, 320) });
      await page.getByRole('textbox', { name: 'Alt text', exact: true }).fill(alt);
      await page.getByRole('button', { name: 'Upload the image' }).click();
      await expect(page.getByText(/^Uploaded uploads\/[0-9a-f]+\.png\.$/)).toBeVisible();
      // The library names it as it was uploaded, and lists the content pack's images too.
      const row = page.getByRole('table', { name: 'Images' }).getByRole('row').filter({ hasText: name });
      await expect(row.getByRole('link', { name })).toBeVisible();
      await expect(row.getByRole('img', { name: alt })).toBeVisible();
      await expect(page.getByRole('table', { name: 'The content pack’s images' }).getByText('team/priya-kaur.svg')).toBeVisible();
      await expectNoAxeViolations(page);
      await shot(page, `media-library-${width}`);

      // A team member's photo, chosen by keyboard: search, Tab to the image, Enter.
      const member = width === 390 ? 'dr-helena-marsh' : 'priya-kaur';
      await page.goto(`/admin/content/team/${member}/`);
      const photo = page.getByRole('group', { name: /^Photo/ });
      await expect(photo.getByText(`Chosen image: team/${member}.svg`)).toBeVisible();
      const change = photo.getByRole('button', { name: 'Change the image' });
      await change.focus();
      await page.keyboard.press('Enter');
      const search = photo.getByRole('searchbox', { name: 'Search the media library by name' });
      await expect(search).toBeFocused();
      await expect(photo.getByRole('list', { name: 'Images to choose as the image' }).getByRole('button', { name: `team/${member}.svg` })).toHaveAttribute('aria-pressed', 'true');
      await page.keyboard.type(`salon front ${width}`);
      await expect(photo.getByText('1 image', { exact: true })).toBeVisible();
      await expectNoAxeViolations(page);
      await shot(page, `image-picker-open-${width}`);
      await page.keyboard.press('Tab');
      await expect(photo.getByRole('button', { name: new RegExp(`^${name}`) })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(change).toBeFocused();
      await expect(photo.getByText(`Chosen image: ${name}`)).toBeVisible();
      await expect(photo.locator('.image-picker-chosen img')).toHaveAttribute('src', /url=%2Fmedia%2Fuploads%2F[0-9a-f]+\.png/);
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(page.getByText(/^Draft saved, /)).toBeVisible();

      // Read again from the server: the draft names the upload, shown by its own name.
      await page.reload();
      await expect(page.getByRole('group', { name: /^Photo/ }).getByText(`Chosen image: ${name}`)).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await shot(page, `image-picker-chosen-${width}`);
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await page.getByRole('button', { name: 'Yes, discard the draft' }).click();
      await expect(page.getByText('Draft discarded: the form shows the live version.')).toBeVisible();
    });

    test('a discount code’s sections and courses are ticked from lists by name', async ({ page }) => {
      await owner(page, `codes-${width}`);
      const code = `HAIR${width}${Date.now().toString(36).toUpperCase()}`;
      await page.goto('/admin/codes/new/');
      await page.getByLabel(/^Code/).fill(code);
      await page.getByLabel('A percentage off').check();
      await page.getByLabel(/^Discount/).fill('10');
      const sections = page.getByRole('group', { name: /Only for these course sections/ });
      await sections.getByRole('checkbox', { name: 'Hair Courses' }).check();
      const courses = page.getByRole('group', { name: /Only for these courses/ });
      await courses.getByRole('searchbox', { name: 'Find a course by name' }).fill('peel');
      await expect(courses.getByRole('checkbox')).toHaveCount(3);
      await expect(courses.getByText(/^3 of \d+ shown$/)).toBeVisible();
      await courses.getByRole('checkbox', { name: 'Chemical Peels Course' }).check();
      await expectNoAxeViolations(page);
      await shot(page, `code-lists-${width}`);
      await page.getByRole('button', { name: 'Create the code' }).click();
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(code) })).toBeVisible();
      await expect(page.getByRole('group', { name: /Only for these course sections/ }).getByRole('checkbox', { name: 'Hair Courses' })).toBeChecked();
      await expect(page.getByRole('group', { name: /Only for these courses/ }).getByRole('checkbox', { name: 'Chemical Peels Course' })).toBeChecked();
      await page.goto('/admin/codes/');
      await expect(page.getByRole('row').filter({ hasText: code })).toContainText('1 course; sections: Hair Courses');
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });

    test('staff reply to an enquiry from its page: a mail to the enquirer, kept with who and when, and in the audit log', async ({ page, browser, baseURL }) => {
      test.setTimeout(60_000);
      const stamp = `${width}-${Date.now()}`;
      const visitor = { name: `Jo Enquirer ${stamp}`, email: `jo-${stamp}@example.com` };
      const site = await (await browser.newContext({ baseURL })).newPage();
      await site.goto('/contact/');
      await hydrated(site);
      await site.getByLabel('Your name').fill(visitor.name);
      await site.getByLabel('Email address').fill(visitor.email);
      await site.getByLabel('Your message').fill('Do you run weekend courses?');
      await site.getByRole('button', { name: 'Send message' }).click();
      await expect(site.getByRole('status').filter({ hasText: /thank/i })).toBeVisible();

      await owner(page, `enquiries-${width}`);
      await page.goto('/admin/enquiries/');
      await page.getByText(visitor.name, { exact: true }).click();
      await page.getByRole('link', { name: `Open the enquiry from ${visitor.name} to reply` }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Website enquiry from ${visitor.name}` })).toBeVisible();
      await expect(page.getByText('No replies yet.')).toBeVisible();
      await page.getByLabel(/^Your reply/).fill('Yes: every other Saturday, from 9:30.');
      await page.getByRole('button', { name: 'Send the reply' }).click();
      await expect(page.getByText(`Reply sent to ${visitor.email}.`)).toBeVisible();
      const reply = page.getByRole('listitem').filter({ hasText: 'Yes: every other Saturday, from 9:30.' });
      await expect(reply).toContainText(`Robin Owner to ${visitor.email}, `);
      await expect(page.getByLabel(/^Status/)).toHaveValue('in_progress');
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await shot(page, `enquiry-reply-${width}`);

      // The mail went through the outbox, answers going to the college.
      const mailbox = await (await page.request.get('/dev/mailbox')).text();
      const mail = mailbox.split('<article>').find((text) => text.includes(`To: ${visitor.email} · Reply-To: `) && text.includes('Yes: every other Saturday'));
      expect(mail, 'the reply in the outbox').toBeTruthy();
      expect(mail).toContain('&gt; Do you run weekend courses?');

      await page.goto('/admin/audit/');
      await expect(page.getByText(`Reply mailed to ${visitor.email}`).first()).toBeVisible();
    });

    test('set-up shows recovery codes once; one signs in instead of a code, once; new ones void the old', async ({ page, consoleErrors }) => {
      test.setTimeout(60_000);
      const email = `recovery-${width}-${Date.now()}@college.test`;
      const { codes } = await setUpKeepingCodes(page, addOwner(email, 'Rory Recovery'), async () => {
        await expect(page.getByRole('heading', { level: 2, name: 'Your account is ready.' })).toBeFocused();
        await expect(page.getByRole('link', { name: 'Download the codes' })).toHaveAttribute('download', 'enrol-recovery-codes.txt');
        await expectNoSidewaysScroll(page);
        await expectNoAxeViolations(page);
        await shot(page, `recovery-codes-set-up-${width}`);
      });
      expect(codes).toHaveLength(10);
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

      // Phone lost: a recovery code signs in, once.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      await signIn(page, email, codes[0]!.toLowerCase());
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      await page.getByRole('link', { name: 'Recovery codes' }).click();
      await expect(page.getByText('You have 9 unused recovery codes.')).toBeVisible();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      await signIn(page, email, codes[0]!);
      await expect(page.getByText('Email, password or code is incorrect.')).toBeVisible();

      // Another code (back to the page signed out from), then a new set after the password: the old ones no longer work.
      await signIn(page, email, codes[1]!);
      await expect(page.getByRole('heading', { level: 1, name: 'Recovery codes' })).toBeVisible();
      await expect(page.getByText('You have 8 unused recovery codes.')).toBeVisible();
      await page.getByLabel(/^Your password/).fill(STAFF_PASSWORD);
      await page.getByRole('button', { name: 'Make new recovery codes' }).click();
      await expect(page.getByText('New recovery codes made: the old ones no longer work.')).toBeVisible();
      const fresh = page.getByRole('region', { name: 'Your recovery codes' }).getByRole('listitem');
      await expect(fresh).toHaveCount(10);
      await expect(page.getByText('You have 10 unused recovery codes.')).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await shot(page, `recovery-codes-new-${width}`);
      const newFirst = (await fresh.first().textContent())!.trim();
      await page.getByRole('button', { name: 'Sign out' }).click();
      // Signed out before the next sign-in: leaving at once could cancel the sign-out's request and keep the session.
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      await signIn(page, email, codes[2]!);
      await expect(page.getByText('Email, password or code is incorrect.')).toBeVisible();
      await signIn(page, email, newFirst);
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      // The browser logs each refused sign-in (401), which the page answers in words.
      allowConsoleErrors(consoleErrors, /status of 401 \(Unauthorized\) \(http:\/\/127\.0\.0\.1:\d+\/api\/admin\/sign-in\)/);
    });
  });
}

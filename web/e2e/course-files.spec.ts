import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, test } from './fixtures';
import { signIn } from './accounts';
import { addOwner, setUp } from './staff';

// A course's own files (decision 028), as a student and staff meet them:
// the demo student's first anatomy lesson plays its uploaded video in the
// browser's own player, read in ranges from the course's address, and
// gives its PDF as a download; staff upload a course file on the media
// area's Course files tab, see where each is used, and remove one no
// lesson uses. At a phone's width and a laptop's.

const AMELIA = { email: 'amelia@student.example', password: 'training day 2027' };
const LESSON = '/learn/anatomy-and-physiology-online/the-cell/';
const SHOTS = '/tmp/shots/media';
const PDF = readFileSync(new URL('../../content/course-files.yaml', import.meta.url), 'utf8').match(/files\/([0-9a-f]+\.pdf)/)![1]!;

async function signInAsAmelia(page: Page, next: string) {
  await page.goto(`/sign-in/?next=${next}`);
  await hydrated(page);
  await signIn(page, AMELIA.email, AMELIA.password);
  await expect(page).toHaveURL(next);
}

for (const width of [390, 1366]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize({ width, height: width < 600 ? 844 : 900 }));

    test('a lesson plays its uploaded video and gives its PDF to download', async ({ page }) => {
      await signInAsAmelia(page, LESSON);
      await hydrated(page);
      const video = page.locator('video');
      await expect(video).toHaveAttribute('src', /^\/learn\/anatomy-and-physiology-online\/files\/[0-9a-f]+\.webm$/);
      // The browser has read the video's metadata from its address, and plays it.
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
      expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(1);
      await video.evaluate(async (v: HTMLVideoElement) => {
        v.muted = true;
        await v.play();
      });
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);

      const downloads = page.getByRole('region', { name: 'Downloads' });
      await expect(downloads.getByRole('listitem')).toHaveText('The cell, a summary sheet (PDF, 1 KB)');
      const [download] = await Promise.all([page.waitForEvent('download'), downloads.getByRole('link', { name: 'The cell, a summary sheet' }).click()]);
      expect(download.suggestedFilename()).toBe('The cell - summary sheet.pdf');
      expect(readFileSync(await download.path()).subarray(0, 5).toString()).toBe('%PDF-');
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SHOTS}/lesson-with-video-${width}.png`, fullPage: true });
      await page.setViewportSize({ width: 320, height: 720 });
      await expectNoSidewaysScroll(page);
    });

    test('staff upload a course file, see where files are used, and remove one no lesson uses', async ({ page, consoleErrors }) => {
      test.setTimeout(60_000);
      const email = `course-files-${width}-${Date.now()}@college.test`;
      await setUp(page, addOwner(email, 'Robin Owner'));
      await page.goto('/admin/media/');
      await page.getByRole('navigation', { name: 'Kinds of media' }).getByRole('link', { name: 'Course files' }).click();
      await expect(page).toHaveURL('/admin/media/course-files/');
      const table = page.getByRole('table', { name: 'Course files' });
      const demo = table.getByRole('row').filter({ hasText: 'The cell - summary sheet.pdf' });
      await expect(demo).toContainText('Level 3 Anatomy and Physiology for Aesthetics Online');

      // Something that is not a lesson's file is refused, with why.
      const name = `Aftercare ${width}.pdf`;
      const field = page.getByRole('button', { name: 'File', exact: true });
      await field.setInputFiles({ name: 'handout.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<!doctype html><p>Not a PDF</p>') });
      await page.getByRole('button', { name: 'Upload the file' }).click();
      await expect(page.getByText(/^This is not a file a lesson can use/)).toBeVisible();
      const pdf = readFileSync(new URL(`../../content/course-files/${PDF}`, import.meta.url));
      await field.setInputFiles({ name, mimeType: 'application/pdf', buffer: pdf });
      await page.getByRole('button', { name: 'Upload the file' }).click();
      await expect(page.getByText(`Uploaded ${name} (PDF, 1 KB).`)).toBeVisible();
      const row = table.getByRole('row').filter({ hasText: name });
      await expect(row).toContainText('Not used');
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SHOTS}/course-files-${width}.png`, fullPage: true });
      await page.setViewportSize({ width: 320, height: 720 });
      await expectNoSidewaysScroll(page);

      // The demo's file is in a published lesson: it stays, and the message names the course.
      await demo.getByRole('button', { name: 'Remove The cell - summary sheet.pdf' }).click();
      await demo.getByRole('button', { name: 'Yes, remove it' }).click();
      await expect(page.getByText(/used by Level 3 Anatomy and Physiology for Aesthetics Online \(published\)/)).toBeVisible();
      await row.getByRole('button', { name: `Remove ${name}` }).click();
      await row.getByRole('button', { name: 'Yes, remove it' }).click();
      await expect(page.getByText(`Removed ${name}.`)).toBeVisible();
      await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(0);
      // The refusals' answers, which the page said in words.
      allowConsoleErrors(consoleErrors, /status of (422|409) .*\/api\/admin\/course-files[/?]/);
    });
  });
}

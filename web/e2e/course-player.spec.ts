import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, test } from './fixtures';
import { signIn } from './accounts';

// The course player (decision 025), as the demo student of
// ENROL_DEMO_STUDENTS studies her online anatomy course: from the account
// to a lesson marked complete and a module quiz marked by the server, on a
// phone and a laptop; a signed-out browser finds nothing there.

const AMELIA = { email: 'amelia@student.example', password: 'training day 2027' };
const COURSE = '/learn/anatomy-and-physiology-online/';

async function signInAsAmelia(page: Page, next: string) {
  await page.goto(`/sign-in/?next=${next}`);
  await hydrated(page);
  await signIn(page, AMELIA.email, AMELIA.password);
  await expect(page).toHaveURL(next);
}

// One student's progress: the widths run in order.
test.describe.configure({ mode: 'serial' });

for (const width of [390, 1366]) {
  test(`a student opens her course from the account, completes a lesson and takes a quiz (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await signInAsAmelia(page, '/account/online-courses/');
    const courses = page.getByRole('region', { name: 'Online courses' });
    const anatomy = courses.getByRole('listitem').filter({ hasText: 'Level 3 Anatomy and Physiology for Aesthetics Online' });
    await expect(anatomy.getByText(/^Access until /)).toBeVisible();
    await anatomy.getByRole('link', { name: /^(Start|Continue)/ }).click();

    await expect(page).toHaveURL(COURSE);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Level 3 Anatomy and Physiology for Aesthetics Online' })).toBeVisible();
    await expect(page.getByRole('progressbar')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/shots/learn-contents-${width}.png`, fullPage: true });

    const contents = page.getByRole('region', { name: 'Course contents' });
    await contents.getByRole('link', { name: /^The cell and its organelles/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'The cell and its organelles' })).toBeVisible();
    await hydrated(page);
    const complete = page.getByRole('button', { name: 'Mark as complete' });
    if (await complete.isVisible()) await complete.click();
    await expect(page.getByText('Completed', { exact: false }).first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/shots/learn-lesson-${width}.png`, fullPage: true });

    await page.goto(`${COURSE}cells-and-tissues-quiz/`);
    await hydrated(page);
    const questions = page.getByRole('group');
    const count = await questions.count();
    expect(count).toBeGreaterThan(3);
    for (let i = 0; i < count; i += 1) {
      const question = questions.nth(i);
      const choice = question.getByRole('radio').or(question.getByRole('checkbox')).first();
      await choice.check();
    }
    await page.getByRole('button', { name: 'Submit answers' }).click();
    const result = page.getByRole('heading', { level: 2, name: /^You (passed|did not pass this time)$/ });
    await expect(result).toBeFocused();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/shots/learn-quiz-result-${width}.png`, fullPage: true });
  });
}

test('a signed-out browser finds no course, lesson or quiz there', async ({ page }) => {
  for (const path of [COURSE, `${COURSE}the-cell/`, `${COURSE}final-assessment/`]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  }
});

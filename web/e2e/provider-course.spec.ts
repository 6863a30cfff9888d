import { createAccount, freshEmail, PASSWORD, signIn } from './accounts';
import { execute, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, query, test } from './fixtures';
import { addOwner, setUp } from './staff';

// A course a hosted LMS teaches (decision 029), as a student with a
// registration sold with a Coassemble course finds it. The browser tests'
// server configures no Coassemble, so "Open your course" comes back saying
// the course is not open yet; the launch itself is tested against a
// stand-in of Coassemble's API in the Rust site tests.

const COURSE = 'dermaplaning-online';
const PLAYER = `/learn/${COURSE}/`;

test('the player offers the course at Coassemble and says plainly when it cannot open it', async ({ page }) => {
  const email = freshEmail();
  await createAccount(page.request, email);
  execute(
    `insert into online_registration (id, user_id, online_order_id, course_id, course_title, created_at, starts_at, ends_at, granted_by, coassemble_course_id) ` +
      `select 'provider-e2e-' || id, id, null, '${COURSE}', 'Dermaplaning Online', datetime('now'), datetime('now', '-1 day'), datetime('now', '+1 year'), null, '4321' ` +
      `from user_account where email = '${email}'`,
  );
  await page.goto(`/sign-in/?next=${PLAYER}`);
  await hydrated(page);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(PLAYER);
  await hydrated(page);
  const title = page.getByRole('heading', { level: 1 });
  await expect(title).toBeVisible();
  const open = page.getByRole('button', { name: 'Open your course' });
  await expect(open).toBeVisible();
  await expectNoAxeViolations(page);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/shots/provider/player-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 320, height: 700 });
  await expectNoSidewaysScroll(page);

  // By keyboard: the button is reached and pressed like any other.
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${PLAYER}?open=unavailable`);
  await expect(page.getByRole('alert')).toHaveText(
    'This course is not open yet: the college is still setting it up on Coassemble. Please try again later, or contact us.',
  );
  await expectNoAxeViolations(page);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/shots/provider/not-open-${width}.png`, fullPage: true });
  }

  // The account lists it with the way in.
  await page.goto('/account/online-courses/');
  await hydrated(page);
  const listed = page.getByRole('region', { name: 'Online courses' }).getByRole('listitem').filter({ hasText: 'Dermaplaning' });
  await expect(listed.getByRole('link', { name: /^(Start|Continue|Open)/ })).toHaveAttribute('href', PLAYER);
});

test('an editor names the Coassemble course in the course form, and a course id that is not a number is refused beside it', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await setUp(page, addOwner(`provider-${Date.now()}@college.test`, 'Robin Owner'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.goto(`/admin/content/course/${COURSE}/`);
  const group = page.getByRole('group', { name: 'Taught on Coassemble' });
  await group.getByLabel('Coassemble course id').fill('dermaplaning');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(group.getByText('Enter the Coassemble course id: the number in the course’s address at Coassemble')).toBeVisible();
  await group.getByLabel('Coassemble course id').fill('4321');
  await group.getByLabel('Coassemble group').fill('level-4');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText(/^Draft saved, .*Publish it to make it live\.$/)).toBeVisible();
  const [[draft]] = query(`select draft from content_document where kind = 'course' and key = '${COURSE}'`) as [[string]];
  expect((JSON.parse(draft) as { provider?: unknown }).provider).toEqual({ coassemble: { course: '4321', group: 'level-4' } });
  await expectNoAxeViolations(page);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await group.screenshot({ path: `/tmp/shots/provider/course-form-${width}.png` });
  }
  await page.setViewportSize({ width: 320, height: 700 });
  await expectNoSidewaysScroll(page);
  // The draft goes, so the other tests' purchases of this course find it as it was.
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await page.getByRole('button', { name: 'Yes, discard the draft' }).click();
  await expect.poll(() => query(`select draft from content_document where kind = 'course' and key = '${COURSE}'`)[0]?.[0]).toBeNull();
});

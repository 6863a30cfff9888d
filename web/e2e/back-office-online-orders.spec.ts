import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures';
import { PASSWORD, createAccount, freshEmail } from './accounts';
import { addOwner, setUp } from './staff';

// Online orders in the back office (decision 027), as staff meet them at a
// phone's width and a laptop's: a student's online order, bought on the
// sandbox, is found on the orders area's Online orders tab by her email
// (at 1366 px by its reference too); it is refunded, her next lesson
// request is refused and her player says the course is closed; her access
// is given back, and the course's learners are read. Every screen passes
// axe and keeps its tables within the screen. Each width has its own
// student, so no other browser test's student loses a course.

const COURSE = 'anatomy-and-physiology-online';
const LESSON = `/api/learn/${COURSE}/lessons/the-cell/done`;

/** A new student, signed in on `student`'s browser, who bought the anatomy course on the sandbox: her email. */
async function studentWithCourse(student: Page): Promise<string> {
  const email = freshEmail();
  await createAccount(student.request, email);
  expect((await student.request.post('/api/auth/sign-in', { data: { username: email, password: PASSWORD } })).status()).toBe(200);
  const agreed = { version: '2026-11-26', terms: true, digitalContent: true };
  const checkout = await student.request.post('/api/e-learning/create-checkout', {
    data: { priceIds: ['price_anatomy_and_physiology_online'], additional: [], agreed },
  });
  expect(checkout.status()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const form = { email, name: 'Priya Shah', card_number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };
  expect((await student.request.post(url, { form, maxRedirects: 0 })).status()).toBe(303);
  return email;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots/bo-${name}.png`, fullPage: true });
}

async function checked(page: Page, name: string) {
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await shot(page, name);
}

/** The student, signed in on her own browser: the status her request to complete a lesson gets. */
async function lessonRequest(request: APIRequestContext): Promise<number> {
  return (await request.post(LESSON, { data: {} })).status();
}

for (const width of [390, 1366]) {
  test(`staff find a student's online order, refund it, and her lessons close (${width} px)`, async ({ page, browser }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await setUp(page, addOwner(`owner-online-${width}-${Date.now()}@college.test`, 'Olive Owner'));
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // The student, on her own browser, studies her course.
    const student = await browser.newPage();
    await student.setViewportSize({ width, height: 900 });
    const email = await studentWithCourse(student);
    await student.goto(`/learn/${COURSE}/`);
    await expect(student.getByRole('heading', { level: 1, name: /^Level 3 Anatomy and Physiology/ })).toBeVisible();
    expect(await lessonRequest(student.request)).toBe(200);

    // The orders area's Online orders tab finds her order.
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('navigation', { name: 'Kinds of order' }).getByRole('link', { name: 'Online orders' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Online orders' })).toBeVisible();
    await page.getByLabel('Reference, email, name or course').fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    const found = page.getByRole('table', { name: 'Online orders found' });
    await expect(found.getByRole('row')).toHaveCount(2);
    await checked(page, `online-orders-${width}`);
    const reference = (await found.getByRole('link').first().textContent())!.trim();
    expect(reference).toMatch(/^E-/);
    if (width === 1366) {
      // Found again by its reference, as read out on the phone.
      await page.getByLabel('Reference, email, name or course').fill(reference.toLowerCase().replace('-', ' '));
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(found.getByRole('row')).toHaveCount(2);
    }
    await found.getByRole('link', { name: reference }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Online order ${reference}` })).toBeVisible();
    const access = page.getByRole('table', { name: 'Course access it gave' });
    await expect(access.getByText(/^Active to /)).toBeVisible();
    await checked(page, `online-order-${width}`);

    // Refunded, after the page says which access ends.
    const refund = page.getByRole('region', { name: 'Refund' });
    const reason = `Ended at ${width} px`;
    await refund.getByRole('checkbox', { name: /^Level 3 Anatomy and Physiology/ }).check();
    await refund.getByLabel('Reason').fill(reason);
    await refund.getByRole('button', { name: 'Refund…' }).click();
    await expect(refund.getByRole('group', { name: /and end access to Level 3 Anatomy and Physiology .* now\?$/ })).toBeFocused();
    await refund.getByRole('button', { name: 'Yes, refund' }).click();
    await expect(refund.getByText('Every line of this order has been refunded.')).toBeVisible();
    await expect(access.getByText(`Withdrawn: Refunded: ${reason}`)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Refunds' }).getByText(reason)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Changes to this order' }).getByText(`: ${reason}`)).toBeVisible();
    await checked(page, `online-order-refunded-${width}`);

    // Her next lesson request is refused, and her player says the course is closed.
    expect(await lessonRequest(student.request)).toBe(404);
    await student.reload();
    await expect(student.getByText('This course is no longer available to you.', { exact: false })).toBeVisible();

    // Given back by staff, as after a refund made in error.
    const changes = page.getByRole('region', { name: 'Change access' });
    await changes.getByRole('button', { name: 'Give access back' }).click();
    await expect(access.getByText(/^Active to /)).toBeVisible();
    expect(await lessonRequest(student.request)).toBe(200);

    // The course's learners, with her progress.
    await page.goto('/admin/orders/online/');
    await page.getByRole('link', { name: /^Level 3 Anatomy and Physiology/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Learners: Level 3 Anatomy and Physiology/ })).toBeVisible();
    const learners = page.getByRole('table', { name: /^Learners of / });
    await expect(learners.getByRole('row').filter({ hasText: email }).first()).toContainText('Active to');
    await checked(page, `learners-${width}`);
    await student.close();
  });
}

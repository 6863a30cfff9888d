import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, test } from './fixtures';
import { signIn } from './accounts';
import { addOwner, setUp } from './staff';

// Online orders in the back office (decision 027), as staff meet them at a
// phone's width and a laptop's: the demo student Amelia's online order is
// found on the orders area's Online orders tab by her name; at 390 px it is
// refunded and her next lesson request is refused and her player says the
// course is closed, then her access is given back so the demo stays
// whole; at 1366 px it is found by its reference, refunded, and the course's
// learners are read. Every screen passes axe and keeps its tables within
// the screen.

const AMELIA = { email: 'amelia@student.example', password: 'training day 2027' };
const COURSE = 'anatomy-and-physiology-online';
const LESSON = `/api/learn/${COURSE}/lessons/the-cell/done`;

// One order, one refund: the widths run in order.
test.describe.configure({ mode: 'serial' });

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots/bo-${name}.png`, fullPage: true });
}

async function checked(page: Page, name: string) {
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await shot(page, name);
}

/** Amelia, signed in on her own browser: the status her request to complete a lesson gets. */
async function lessonRequest(request: APIRequestContext): Promise<number> {
  return (await request.post(LESSON, { data: {} })).status();
}

for (const width of [390, 1366]) {
  test(`staff find Amelia's online order, refund it, and her lessons close (${width} px)`, async ({ page, browser }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await setUp(page, addOwner(`owner-online-${width}-${Date.now()}@college.test`, 'Olive Owner'));
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // Amelia, on her own browser, studies her course.
    const student = await browser.newPage();
    await student.setViewportSize({ width, height: 900 });
    await student.goto(`/sign-in/?next=/learn/${COURSE}/`);
    await hydrated(student);
    await signIn(student, AMELIA.email, AMELIA.password);
    await expect(student).toHaveURL(`/learn/${COURSE}/`);
    expect(await lessonRequest(student.request)).toBe(200);

    // The orders area's Online orders tab finds her order.
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('navigation', { name: 'Kinds of order' }).getByRole('link', { name: 'Online orders' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Online orders' })).toBeVisible();
    await page.getByLabel('Reference, email, name or course').fill('amelia hart');
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

    // Refunded, after the page says which access ends; once refunded (by
    // the narrower run), withdrawn instead, as for a chargeback.
    const refund = page.getByRole('region', { name: 'Refund' });
    const line = refund.getByRole('checkbox', { name: /^Level 3 Anatomy and Physiology/ });
    const reason = `Ended at ${width} px`;
    if (await line.count()) {
      await line.check();
      await refund.getByLabel('Reason').fill(reason);
      await refund.getByRole('button', { name: 'Refund…' }).click();
      await expect(refund.getByRole('group', { name: /and end access to Level 3 Anatomy and Physiology .* now\?$/ })).toBeFocused();
      await refund.getByRole('button', { name: 'Yes, refund' }).click();
      await expect(refund.getByText('Every line of this order has been refunded.')).toBeVisible();
      await expect(access.getByText(`Withdrawn: Refunded: ${reason}`)).toBeVisible();
      // Queued for the payment provider (the demo's payment was never the sandbox's, so it waits there).
      await expect(page.getByRole('table', { name: 'Refunds' }).getByText(reason)).toBeVisible();
      await expect(page.getByRole('table', { name: 'Changes to this order' }).getByText(`: ${reason}`)).toBeVisible();
    } else {
      await expect(refund.getByText('Every line of this order has been refunded.')).toBeVisible();
      const changes = page.getByRole('region', { name: 'Change access' });
      await changes.getByLabel('Reason for withdrawing').fill(reason);
      await changes.getByRole('button', { name: 'Withdraw access…' }).click();
      await changes.getByRole('button', { name: 'Yes, withdraw it' }).click();
      await expect(access.getByText(`Withdrawn: ${reason}`)).toBeVisible();
    }
    await checked(page, `online-order-refunded-${width}`);

    // Her next lesson request is refused, and her player says the course is closed.
    expect(await lessonRequest(student.request)).toBe(404);
    await student.reload();
    await expect(student.getByText('This course is no longer available to you.', { exact: false })).toBeVisible();

    // Given back, so the demo student keeps her course for the other tests.
    const changes = page.getByRole('region', { name: 'Change access' });
    await changes.getByRole('button', { name: 'Give access back' }).click();
    await expect(access.getByText(/^Active to /)).toBeVisible();
    expect(await lessonRequest(student.request)).toBe(200);

    // The course's learners, with her progress.
    await page.goto('/admin/orders/online/');
    await page.getByRole('link', { name: /^Level 3 Anatomy and Physiology/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Learners: Level 3 Anatomy and Physiology/ })).toBeVisible();
    const learners = page.getByRole('table', { name: /^Learners of / });
    await expect(learners.getByRole('row').filter({ hasText: AMELIA.email }).first()).toContainText('Active to');
    await checked(page, `learners-${width}`);
    await student.close();
  });
}

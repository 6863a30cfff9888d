import type { Locator, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, gbp, hydrated, query, test } from './fixtures';
import { checkoutWith, payBookingFee, signedInStudent } from './accounts';

// The account area's sums and labels as a student meets them on a
// phone and on a laptop: a booking's discount and a cancelled one's refund,
// table headings that stay whole, a menu of nine parts that leaves the part
// chosen above the fold, and the way back to the account after paying a
// balance.

const COURSE = '/courses/aesthetics/bb-glow/';
const CODE = 'WELCOME10';
const SECTIONS = ['Overview', 'Bookings', 'Online courses', 'Payments', 'Certificates', 'Forms', 'Documents', 'Intake call', 'Profile'];

const menu = (page: Page) => page.getByRole('navigation', { name: 'Your account' });
const section = (page: Page, name: string) => page.getByRole('region', { name });

/** Agrees to what the checkout `form` asks (the terms, a course's entry requirements) and pays its booking fee: the order's id. */
async function agreeAndPay(page: Page, form: Locator): Promise<string> {
  for (const box of await form.getByRole('checkbox', { name: /^I (accept the terms|meet the entry requirements)/ }).all()) await box.check();
  return payBookingFee(page, form);
}

/** The table headings on the page whose words break over two lines. */
function brokenHeadings(page: Page): Promise<string[]> {
  return page.locator('thead th').evaluateAll((cells) =>
    cells
      .filter((cell) => {
        const words = document.createRange();
        words.selectNodeContents(cell);
        return words.getClientRects().length > 1;
      })
      .map((cell) => cell.textContent ?? ''),
  );
}

for (const width of [390, 1366]) {
  test.describe(`at ${width}px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    });

    test('a booking shows its discount, a cancelled one its refund, and the payments’ headings stay whole', async ({ page, request }) => {
      await signedInStudent(page, request);
      const form = await checkoutWith(page, COURSE);
      await page.getByLabel('Discount code').fill(CODE);
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page.getByText(`Discount code ${CODE}`, { exact: true })).toBeVisible();
      const orderId = await agreeAndPay(page, form);
      const [[discount, total]] = query(`select discount, total from enrollment where id = '${orderId}'`) as [[number, number]];
      expect(discount).toBeGreaterThan(0);

      await page.goto('/account/bookings/');
      await hydrated(page);
      const bookings = section(page, 'Bookings');
      const sums = bookings.getByRole('table').locator('tfoot');
      await expect(sums.getByRole('row', { name: /^Discount/ })).toContainText(`-${gbp(discount)}`);
      await expect(sums.getByRole('row', { name: /^Total/ })).toContainText(gbp(total));
      await expect(sums.getByRole('row', { name: /^Paid/ })).toContainText(gbp(10_000));
      expect(await brokenHeadings(page)).toEqual([]);
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `/tmp/shots/account-booking-discount-${width}.png`, fullPage: true });

      await bookings.getByRole('button', { name: 'Cancel booking' }).click();
      await bookings.getByRole('region', { name: 'Cancel this booking?' }).getByRole('button', { name: 'Yes, cancel my booking' }).click();
      await expect(bookings.getByText('Cancelled', { exact: true })).toBeVisible();
      // What was paid stays said, and what came back is said under it.
      await expect(sums.getByRole('row', { name: /^Paid/ })).toContainText(gbp(10_000));
      await expect(bookings.getByText(`Refunded to you: ${gbp(10_000)}`)).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `/tmp/shots/account-booking-refund-${width}.png`, fullPage: true });

      await menu(page).getByRole('link', { name: 'Payments' }).click();
      const payments = section(page, 'Payments').getByRole('table');
      await expect(payments.getByRole('link', { name: /^Credit note / })).toBeVisible();
      await expect(payments.getByRole('columnheader')).toHaveText(['Date', 'Method', 'Receipt', 'Amount']);
      expect(await brokenHeadings(page)).toEqual([]);
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `/tmp/shots/account-payments-${width}.png`, fullPage: true });
    });

    test('every part of the account is reached from its menu by keyboard, with the part chosen above the fold', async ({ page, request }) => {
      test.slow(); // nine parts, each checked by axe
      await signedInStudent(page, request);
      await page.screenshot({ path: `/tmp/shots/account-menu-${width}.png` });
      for (const name of SECTIONS) {
        const link = menu(page).getByRole('link', { name });
        await link.focus();
        await page.keyboard.press('Enter');
        await expect(link).toHaveAttribute('aria-current', 'page');
        // The menu is one row on a phone: the part's heading and what follows it are on the first screen.
        const heading = section(page, name).getByRole('heading', { level: 2, name });
        await expect(heading).toBeInViewport({ ratio: 1 });
        const { y, height } = (await heading.boundingBox())!;
        expect(y + height).toBeLessThan((width < 600 ? 844 : 900) - 200);
        if (width < 600) expect((await menu(page).boundingBox())!.height).toBeLessThan(70);
        await expect(link).toBeInViewport({ ratio: 1 });
        await expectNoSidewaysScroll(page);
        await expectNoAxeViolations(page);
      }
      await page.screenshot({ path: `/tmp/shots/account-menu-profile-${width}.png` });
      // Tab moves along the row too, each link coming into view as it takes the focus.
      await menu(page).getByRole('link', { name: 'Overview' }).focus();
      for (const name of SECTIONS.slice(1)) {
        await page.keyboard.press('Tab');
        await expect(menu(page).getByRole('link', { name })).toBeFocused();
        await expect(menu(page).getByRole('link', { name })).toBeInViewport();
      }
    });

    test('after paying a balance the page leads back to the account', async ({ page, request }) => {
      await signedInStudent(page, request);
      await agreeAndPay(page, await checkoutWith(page, COURSE));
      await page.goto('/account/bookings/');
      await hydrated(page);
      await section(page, 'Bookings').getByRole('button', { name: /^Pay £/ }).click();
      await page.waitForURL(/\/pay-balance\/\?token=[0-9a-f]+$/);
      await hydrated(page);
      await page.getByRole('form', { name: 'Amount to pay' }).getByLabel('Amount to pay now (£)').fill('50.00');
      await page.getByRole('button', { name: 'Continue to payment' }).click();
      const pay = page.getByRole('form', { name: 'Pay your balance' });
      await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
      await pay.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await pay.getByLabel('Security code').fill('123');
      await pay.getByRole('button', { name: 'Pay £50.00' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible({ timeout: 15_000 });
      const back = page.getByRole('link', { name: 'Go to your account' });
      await expect(back).toBeInViewport();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `/tmp/shots/balance-paid-${width}.png`, fullPage: true });
      await back.click();
      await expect(page).toHaveURL('/account/');
      await expect(section(page, 'Overview')).toBeVisible();
    });
  });
}

import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures';
import { addOwner, setUp } from './staff';

// The course editor says what the site will charge (decision 019): each
// date still to come with its price, and whether it follows the course's
// price or carries its own; an order's page says what its buyer agreed to
// (decision 020). At a laptop's width and a phone's.

const SHOTS = process.env.E2E_SHOTS;

for (const width of [390, 1366]) {
  test(`the course editor lists its dates and which carry their own price, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const stamp = `${Date.now()}-${width}`;
    await setUp(page, addOwner(`owner-prices-${stamp}@college.test`, 'Pat Prices'));
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.goto('/admin/content/course/foundation-anti-wrinkle/');
    const dates = page.getByRole('table', { name: 'Dates to come' });
    await expect(dates).toBeVisible();
    await expect(dates.getByRole('row')).toHaveCount(5);
    await expect(dates.getByRole('row').filter({ hasText: 'Its own price' })).toHaveCount(1);
    await expect(dates.getByRole('row').filter({ hasText: '£1,350.00' })).toContainText('Its own price');
    await expect(dates.getByRole('row').filter({ hasText: 'Follows the course' })).toHaveCount(3);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    if (SHOTS) await page.getByRole('region', { name: 'Dates and their prices' }).screenshot({ path: `${SHOTS}/editor-dates-${width}.png` });
  });
}

import type { Locator, Page } from '@playwright/test';
import { chooseDate, dateChoices, expect, expectNoAxeViolations, gbp, hydrated, test } from './fixtures';

// A course's dates on the course page and at the checkout are choices that
// show each date's day, price and seats left in full, down to a 320 px
// phone (a select cut '£1,350.00' to '£1,' and hid the seats).

// Demo content: four dates, the last dearer than the others.
const ANTI_WRINKLE = '/courses/injectables/foundation-anti-wrinkle/';
const CHOICE = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2}(st|nd|rd|th) [A-Z][a-z]+ · On site £[\d,]+\.\d{2} · \d+ seats? left$/;

interface Course {
  sessions: { id: string; price: number; seats: number; registrations: number; held: number }[];
}

/** Every choice's words match `CHOICE` and none is cut: each box is as wide as its text and inside the screen. */
async function expectWhole(page: Page, choices: Locator) {
  const labels = choices.locator('label');
  expect(await labels.count()).toBeGreaterThan(1);
  for (const text of await labels.allTextContents()) expect(text).toMatch(CHOICE);
  const cut = await labels.evaluateAll((elements) =>
    elements
      .filter((label) => label.scrollWidth > label.clientWidth || label.getBoundingClientRect().right > document.documentElement.clientWidth)
      .map((label) => label.textContent),
  );
  expect(cut, 'choices cut at the screen edge').toEqual([]);
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const width of [320, 390, 1366]) {
  test(`at ${width} px each date shows its price and seats left in full, on the course page and at the checkout`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const course = ((await (await page.request.get(`/api/page-data?path=${ANTI_WRINKLE}`)).json()) as { page: Course }).page;
    const open = course.sessions.filter((s) => s.seats - s.registrations - s.held > 0);
    const dearest = open.reduce((a, b) => (b.price > a.price ? b : a));

    await page.goto(ANTI_WRINKLE);
    await hydrated(page);
    const onPage = dateChoices(page);
    await expectWhole(page, onPage);
    await expect(onPage.getByText(gbp(dearest.price), { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await chooseDate(page, dearest.id);
    await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();

    await page.goto('/checkout/');
    await hydrated(page);
    await expect(page.getByText('Preparing your checkout')).toBeHidden();
    const atCheckout = dateChoices(page.getByRole('region', { name: 'Your selected courses' }));
    await expectWhole(page, atCheckout);
    await expect(atCheckout.locator(`input[value="${dearest.id}"]`)).toBeChecked();
    await expectNoAxeViolations(page);
    // Choosing another date by keyboard changes the price charged.
    await atCheckout.locator(`input[value="${dearest.id}"]`).focus();
    await page.keyboard.press('ArrowUp');
    const chosen = await atCheckout.locator('input:checked').getAttribute('value');
    expect(chosen).not.toBe(dearest.id);
    const cheaper = open.find((s) => s.id === chosen)!;
    await expect(page.locator('.checkout-line .price')).toContainText(gbp(cheaper.price));
  });
}

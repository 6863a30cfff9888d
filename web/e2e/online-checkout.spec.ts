import type { Page } from '@playwright/test';
import { agreeToAll, expect, expectNoAxeViolations, gbp, hydrated, pageData, query, test } from './fixtures';

interface CourseData {
  page: {
    title: string;
    url: string;
    pricing: { unit_amount: number };
    upsell: { title: string; cta: string; price_data: { unit_amount: number } } | null;
  };
}

/** Online courses from the e-learning section: one with an upsell first. */
async function onlineCourses(page: Page): Promise<CourseData['page'][]> {
  await page.goto('/courses/elearning/');
  const listing = await pageData<{ page: { courses: { url: string; online: boolean }[] } }>(page);
  const courses: CourseData['page'][] = [];
  for (const card of listing.page.courses.filter((c) => c.online)) {
    const response = await page.request.get(`/api/page-data?path=${encodeURIComponent(card.url)}`);
    courses.push(((await response.json()) as CourseData).page);
  }
  return courses.sort((a, b) => Number(b.upsell !== null) - Number(a.upsell !== null));
}

async function addToOnlineBasket(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await expect(page.getByRole('button', { name: 'In your basket' })).toBeDisabled();
}

async function openDrawer(page: Page) {
  await page.getByRole('button', { name: /^Basket/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Order Summary' });
  await expect(drawer).toBeVisible();
  return drawer;
}

async function payOnSandbox(page: Page, card: string) {
  await page.getByLabel('Email').fill('e2e.buyer@example.com');
  await page.getByLabel('Name on card').fill('Eddie Buyer');
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
}

test('two online courses with an upsell are bought on the sandbox and recorded once', async ({ page }) => {
  const [first, second] = await onlineCourses(page);
  expect(first!.upsell, 'the demo content has an online course with an upsell').not.toBeNull();
  await addToOnlineBasket(page, first!.url);
  await addToOnlineBasket(page, second!.url);

  const drawer = await openDrawer(page);
  await expect(drawer.getByRole('heading', { name: first!.title })).toBeVisible();
  await expect(drawer.getByRole('heading', { name: second!.title })).toBeVisible();
  const courses = first!.pricing.unit_amount + second!.pricing.unit_amount;
  const upsellPrice = first!.upsell!.price_data.unit_amount;
  const total = drawer.locator('.drawer-total');
  await expect(total).toContainText(gbp(courses));

  const upsell = drawer.locator('button[aria-pressed]').first();
  await expect(upsell).toContainText(first!.upsell!.cta);
  await upsell.click();
  await expect(upsell).toHaveAttribute('aria-pressed', 'true');
  await expect(upsell).toContainText('Remove');
  await expect(total).toContainText(gbp(courses + upsellPrice));
  await upsell.click();
  await expect(total).toContainText(gbp(courses));
  await upsell.click();
  await expect(total).toContainText(gbp(courses + upsellPrice));
  await expectNoAxeViolations(page);

  const tracked = page.evaluate(
    () => new Promise<string>((resolve) => window.addEventListener('enrol:track', (e) => resolve((e as CustomEvent<{ name: string }>).detail.name))),
  );
  await agreeToAll(drawer);
  await drawer.getByRole('button', { name: 'Book Now' }).click();
  expect(await tracked).toBe('begin_checkout');
  await page.waitForURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await expect(page.getByRole('heading', { name: `Pay ${gbp(courses + upsellPrice)}` })).toBeVisible();
  await expectNoAxeViolations(page);

  await payOnSandbox(page, '4242 4242 4242 4242');
  await page.waitForURL(/\/e-learning\/order\/[0-9a-f-]+\/$/);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'e2e.buyer@example.com' })).toBeVisible();
  await expectNoAxeViolations(page);
  // The basket is emptied only now that the payment is confirmed.
  await expect.poll(() => page.evaluate(() => (JSON.parse(sessionStorage.getItem('onlineCourses') ?? '[]') as unknown[]).length)).toBe(0);

  const orderId = new URL(page.url()).pathname.split('/')[3]!;
  expect(query(`select amount, status from payment where online_order_id = '${orderId}'`)).toEqual([[courses + upsellPrice, 'succeeded']]);
  expect(query(`select count(*) from online_registration where online_order_id = '${orderId}'`)).toEqual([[2]]);
  const receipts = query(`select body_text from mail_outbox where to_address = 'e2e.buyer@example.com'`);
  expect(receipts).toHaveLength(1);
  expect(String(receipts[0]![0])).toContain(`Total paid: ${gbp(courses + upsellPrice)}`);
});

test('a declined card shows the decline and records nothing; cancelling keeps the basket', async ({ page }) => {
  const [, , third] = await onlineCourses(page);
  await addToOnlineBasket(page, third!.url);
  const drawer = await openDrawer(page);
  await agreeToAll(drawer);
  await drawer.getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//);
  const checkoutUrl = page.url();

  await payOnSandbox(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  await expect(page.getByLabel('Email')).toHaveValue('e2e.buyer@example.com');
  const sessionId = checkoutUrl.split('/').pop()!;
  const [[orderId]] = query(`select id from online_order where checkout_session_id = '${sessionId}'`) as [[string]];
  expect(query(`select count(*) from payment where online_order_id = '${orderId}'`)).toEqual([[0]]);
  expect(query(`select count(*) from online_registration where online_order_id = '${orderId}'`)).toEqual([[0]]);

  await page.getByRole('link', { name: 'Cancel and return to the site' }).click();
  await page.waitForURL(/checkout=cancelled/);
  await hydrated(page);
  const reopened = page.getByRole('dialog', { name: 'Order Summary' });
  await expect(reopened.getByRole('heading', { name: third!.title })).toBeVisible();
});

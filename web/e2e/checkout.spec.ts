import type { Page } from '@playwright/test';
import { agreeToAll, allowConsoleErrors, chooseDate, expect, expectNoAxeViolations, gbp, hydrated, query, test } from './fixtures';

interface Course {
  id: string;
  title: string;
  url: string;
  pricing: { unit_amount: number };
  kit: { name: string; pricePounds: number | null } | null;
  sessions: { id: string; price: number }[];
}

// Demo content: courses, and the codes of content/discounts.yaml.
const MICRONEEDLING = '/courses/aesthetics/microneedling/';
const CHEMICAL_PEELS = '/courses/aesthetics/chemical-peels/';
const DERMAPLANING = '/courses/aesthetics/dermaplaning/';
const COMPLICATIONS = '/courses/cpd/aesthetic-complications/';
const DERMAL_FILLERS = '/courses/injectables/foundation-dermal-fillers/';
const PERCENT_CODE = { code: 'WELCOME10', percent: 10 };
const POUND_CODE = { code: 'SAVE50', pence: 5000 };
const BOOKING_FEE = 10000;

async function course(page: Page, path: string): Promise<Course> {
  const response = await page.request.get(`/api/page-data?path=${encodeURIComponent(path)}`);
  return ((await response.json()) as { page: Course }).page;
}

async function addToBasket(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
  await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();
}

async function openCheckout(page: Page, path = '/checkout/') {
  await page.goto(path);
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Your selected courses' })).toBeVisible();
  await expect(page.getByText('Preparing your checkout')).toBeHidden();
}

/** The checkout's form on the right: contact details, error line and payment element. */
const paymentForm = (page: Page) => page.getByRole('form', { name: 'Enrol and pay' });

/** The figure beside `label` in the totals. */
const figure = (page: Page, label: string) =>
  page.locator('.checkout-totals > div').filter({ has: page.getByText(label, { exact: true }) }).getByRole('definition');

async function fillContact(page: Page, email: string) {
  const form = paymentForm(page);
  await form.getByLabel('First name').fill('Eddie');
  await form.getByLabel('Last name').fill('Student');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Phone number').fill('07700 900123');
}

async function fillCard(page: Page, number: string) {
  const form = paymentForm(page);
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await form.getByLabel('Security code').fill('123');
}

async function applyCode(page: Page, code: string) {
  await page.getByLabel('Discount code').fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(`Discount code ${code}`, { exact: true })).toBeVisible();
  await expect(page.getByLabel('Discount code')).toBeHidden();
}

/** Names of the tracking events the page fires from now on. */
async function trackedEvents(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const names: string[] = [];
    (window as unknown as { tracked: string[] }).tracked = names;
    window.addEventListener('enrol:track', (e) => names.push((e as CustomEvent<{ name: string }>).detail.name));
  });
  return () => page.evaluate(() => (window as unknown as { tracked: string[] }).tracked);
}

async function confirmation(page: Page): Promise<string> {
  await page.waitForURL(/\/enrolment\/[0-9a-f-]+/);
  await hydrated(page);
  // The page waits for the gateway's webhook, reading the order every two seconds.
  await expect(page.getByRole('heading', { level: 1, name: "You're enrolled" })).toBeVisible({ timeout: 15_000 });
  return new URL(page.url()).pathname.split('/')[2]!;
}

test('with no selected courses the checkout invites the visitor to choose one', async ({ page }) => {
  await page.goto('/checkout/');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Lets get you enrolled' })).toBeVisible();
  await expect(page.getByText('It appears you have not selected any courses.')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Please select a course to enroll onto.' }).click();
  await expect(page).toHaveURL('/courses/');
});

test('a payment Klarna denies comes back to the checkout, which says it failed', async ({ page }) => {
  await addToBasket(page, COMPLICATIONS);
  await openCheckout(page);
  await paymentForm(page).getByRole('radio', { name: 'Klarna' }).check();
  await agreeToAll(paymentForm(page));
  await paymentForm(page).getByRole('button', { name: /^Pay £/ }).click();
  await page.waitForURL(/\/sandbox\/redirect\//);
  const orderId = await page.evaluate(() => localStorage.getItem('orderId'));
  await page.getByRole('button', { name: 'Deny payment' }).click();

  await page.waitForURL('/checkout/?status=failed');
  await hydrated(page);
  await expect(paymentForm(page).getByRole('alert')).toHaveText('Payment failed. Please try an alternative payment method');
  await expect(page.getByRole('region', { name: 'Your selected courses' }).getByRole('link')).toHaveCount(1);
  await expectNoAxeViolations(page);
  expect(query(`select status from enrollment where id = '${orderId}'`)).toEqual([['failed']]);
  expect(query(`select count(*) from seat_hold where enrollment_id = '${orderId}'`)).toEqual([[0]]);
});

test('a course with two dates, a kit and both kinds of code: the booking fee by card lands on the confirmation', async ({ page }) => {
  const microneedling = await course(page, MICRONEEDLING);
  expect(microneedling.sessions.length, 'the demo course has several dates').toBeGreaterThanOrEqual(2);
  const kit = microneedling.kit!;
  expect(kit.pricePounds, 'the demo course has a kit to choose').not.toBeNull();

  await page.goto(microneedling.url);
  await hydrated(page);
  const tracked = await trackedEvents(page);
  await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect.poll(tracked).toEqual(['Added Course', 'add_to_cart', 'AddToCart']);

  await openCheckout(page);
  const courses = page.getByRole('region', { name: 'Your selected courses' });
  await expect(courses.getByRole('link', { name: microneedling.title })).toBeVisible();
  const chosen = microneedling.sessions.at(-1)!;
  await chooseDate(courses, chosen.id);
  await courses.getByLabel(`Add the ${kit.name} for £${kit.pricePounds}`).check();
  const subtotal = chosen.price + kit.pricePounds! * 100;
  await expect(figure(page, 'Your training total')).toHaveText(gbp(subtotal));
  await expectNoAxeViolations(page);

  await applyCode(page, PERCENT_CODE.code);
  const percentOff = Math.floor((subtotal * PERCENT_CODE.percent + 50) / 100);
  await expect(figure(page, `Discount code ${PERCENT_CODE.code}`)).toContainText(`-${gbp(percentOff)}`);
  await expect(figure(page, 'Total after discount')).toHaveText(gbp(subtotal - percentOff));
  await page.getByRole('button', { name: `Remove discount code ${PERCENT_CODE.code}` }).click();

  await applyCode(page, POUND_CODE.code);
  const total = subtotal - POUND_CODE.pence;
  await expect(figure(page, 'Total after discount')).toHaveText(gbp(total));
  await expect(figure(page, 'Booking fee')).toContainText(gbp(BOOKING_FEE));
  await expect(figure(page, 'Balance')).toContainText(`${gbp(total - BOOKING_FEE)} due by `);

  await fillContact(page, 'fee.payer@example.com');
  await fillCard(page, '4242 4242 4242 4242');
  await agreeToAll(paymentForm(page));
  await paymentForm(page).getByRole('button', { name: `Pay booking fee ${gbp(BOOKING_FEE)}` }).click();

  const orderId = await confirmation(page);
  await expect(page.getByRole('link', { name: microneedling.title })).toBeVisible();
  await expect(page.getByRole('row', { name: `Paid ${gbp(BOOKING_FEE)}` })).toBeVisible();
  await expect(page.getByText('fee.payer@example.com')).toBeVisible();
  await expectNoAxeViolations(page);
  await expect.poll(() => page.evaluate(() => [sessionStorage.getItem('courses'), localStorage.getItem('orderId')])).toEqual([null, null]);

  expect(query(`select status, total, deposit, balance from enrollment where id = '${orderId}'`)).toEqual([
    ['deposit', total, BOOKING_FEE, total - BOOKING_FEE],
  ]);
  expect(query(`select amount, status from payment where enrollment_id = '${orderId}'`)).toEqual([[BOOKING_FEE, 'succeeded']]);
  expect(query(`select session_id, type from registration where enrollment_id = '${orderId}'`)).toEqual([[chosen.id, 'STUDENT']]);
  expect(query(`select count(*) from seat_hold where enrollment_id = '${orderId}'`)).toEqual([[0]]);
});

test('the full total is paid with Klarna on the sandbox', async ({ page }) => {
  const peels = await course(page, CHEMICAL_PEELS);
  const price = peels.sessions[0]!.price;
  await addToBasket(page, peels.url);
  await openCheckout(page);
  await expect(paymentForm(page).getByRole('radio', { name: 'Clearpay' })).toBeVisible();
  await paymentForm(page).getByRole('radio', { name: 'Klarna' }).check();
  await expect(figure(page, 'Paying in full today')).toHaveText(gbp(price));
  await expect(paymentForm(page).getByLabel('Card number')).toBeHidden();
  await fillContact(page, 'klarna.payer@example.com');
  await agreeToAll(paymentForm(page));
  await paymentForm(page).getByRole('button', { name: `Pay ${gbp(price)}` }).click();

  await page.waitForURL(/\/sandbox\/redirect\//);
  await page.getByRole('button', { name: 'Approve payment' }).click();
  const orderId = await confirmation(page);
  await expect(page.getByRole('row', { name: `Paid ${gbp(price)}` })).toBeVisible();
  await expectNoAxeViolations(page);

  expect(query(`select status, total from enrollment where id = '${orderId}'`)).toEqual([['completed', price]]);
  expect(query(`select amount, status from payment where enrollment_id = '${orderId}'`)).toEqual([[price, 'succeeded']]);
  expect(query(`select count(*) from registration where enrollment_id = '${orderId}' and type = 'STUDENT'`)).toEqual([[1]]);
});

test('a declined card shows the decline, keeps the form and records no payment', async ({ page, consoleErrors }) => {
  await addToBasket(page, DERMAPLANING);
  await openCheckout(page);
  const tracked = await trackedEvents(page);
  await fillContact(page, 'declined.payer@example.com');
  await fillCard(page, '4000 0000 0000 0002');
  const form = paymentForm(page);
  await agreeToAll(form);
  await form.getByRole('button', { name: `Pay booking fee ${gbp(BOOKING_FEE)}` }).click();

  await expect(form.getByRole('alert')).toHaveText(/^Payment failed: ./);
  await expect(page).toHaveURL('/checkout/');
  await expect(form.getByLabel('Email')).toHaveValue('declined.payer@example.com');
  await expect(form.getByLabel('Card number')).toHaveValue('4000 0000 0000 0002');
  await expect(form.getByRole('button', { name: `Pay booking fee ${gbp(BOOKING_FEE)}` })).toBeEnabled();
  expect(await tracked()).toContain('Booking Error');

  const orderId = await page.evaluate(() => localStorage.getItem('orderId'));
  expect(orderId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
  expect(query(`select count(*) from payment where enrollment_id = '${orderId}' and status = 'succeeded'`)).toEqual([[0]]);
  expect(query(`select count(*) from registration where enrollment_id = '${orderId}'`)).toEqual([[0]]);
  expect(query(`select status from enrollment where id = '${orderId}'`)).not.toEqual([['deposit']]);

  // Another card can be tried from the same form.
  await form.getByLabel('Card number').fill('4000 0000 0000 9995');
  await agreeToAll(form);
  await form.getByRole('button', { name: `Pay booking fee ${gbp(BOOKING_FEE)}` }).click();
  await expect(form.getByRole('alert')).toHaveText(/^Payment failed: ./);
  await expect(form.getByLabel('Last name')).toHaveValue('Student');
  // The declines, and the failed order that can no longer change (a new one is made).
  allowConsoleErrors(consoleErrors, /status of (402 .*\/sandbox\/payment_intents\/[^/]+\/confirm|422 .*\/api\/enroll\/)\)$/);
});

test('the payment-plan panel appears at £1,000 and reaches Details Received', async ({ page }) => {
  await addToBasket(page, COMPLICATIONS);
  await openCheckout(page);
  const plan = page.getByRole('region', { name: 'Spread the cost with a payment plan' });
  await expect(plan).toBeHidden();

  await addToBasket(page, DERMAL_FILLERS);
  await openCheckout(page);
  await expect(plan).toBeVisible();
  await expect(plan).toContainText('without interest and without credit checks');
  await expect(plan).toContainText('within 2 hours during business hours');
  await plan.getByRole('button', { name: 'Ask about a payment plan' }).click();
  await expect(plan.getByLabel('First name')).toBeFocused();
  await plan.getByRole('button', { name: 'Request a payment plan' }).click();
  for (const message of ['Name is required', 'Last name is required', 'Email is required', 'Phone number is required']) {
    await expect(plan.getByText(message, { exact: true })).toBeVisible();
  }
  await expectNoAxeViolations(page);

  await plan.getByLabel('First name').fill('Pat');
  await plan.getByLabel('Last name').fill('Planner');
  await plan.getByLabel('Email').fill('pat.planner@example.com');
  await plan.getByLabel('Phone number').fill('07700 900456');
  await plan.getByRole('button', { name: 'Request a payment plan' }).click();
  await expect(plan.getByText('Details Received')).toBeVisible();
});

test('each contact and card message appears for a card payment; pay later leaves them optional', async ({ page }) => {
  await addToBasket(page, COMPLICATIONS);
  await openCheckout(page);
  const form = paymentForm(page);
  await form.getByLabel('Email').fill('not-an-email');
  await agreeToAll(form);
  await form.getByRole('button', { name: /^Pay booking fee/ }).click();
  for (const message of [
    'Name is required', 'Last name is required', 'Enter a valid email address', 'Phone number is required',
    'Card number is required', 'Expiry date is required', 'Security code is required',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(form.getByLabel('First name')).toBeFocused();
  await expect(form.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Email')).toHaveValue('not-an-email');
  await form.getByLabel('Email').fill('');
  await agreeToAll(form);
  await form.getByRole('button', { name: /^Pay booking fee/ }).click();
  await expect(form.getByText('Email is required', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  await form.getByRole('radio', { name: 'Klarna' }).check();
  await expect(form.getByText('Name is required', { exact: true })).toBeHidden();
  await expect(form.getByLabel('First name')).not.toHaveAttribute('required', '');
});

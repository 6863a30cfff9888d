import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { chooseDate, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, query, test } from './fixtures';
import { payBookingFee, signedInStudent } from './accounts';
import { lookAt, mailTo } from './mailbox';

// Instalment plans (decision 036): a £1,995 booking's balance in three
// monthly instalments, chosen at checkout with every part and day shown,
// the card saved with the booking fee, and each part charged on its day
// as the development clock moves there; a card the bank wants confirmed
// mails the student a link to pay the part, and the rest is paid off early
// from the account.

const COURSE = '/courses/injectables/anti-wrinkle-and-dermal-fillers/';
// Demo content: £1,995, training about four months away.
const SESSION = 'anti-wrinkle-and-dermal-fillers-4';

/** The checkout with the course's far date in the basket: the plan's region and the payment form. */
async function checkoutFarDate(page: Page): Promise<{ plan: Locator; form: Locator }> {
  await page.goto(COURSE);
  await hydrated(page);
  await chooseDate(page, SESSION);
  await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();
  await page.goto('/checkout/');
  await hydrated(page);
  await expect(page.getByText('Preparing your checkout')).toBeHidden();
  return {
    plan: page.getByRole('region', { name: 'Spread the cost with a payment plan' }),
    form: page.getByRole('form', { name: 'Enrol and pay' }),
  };
}

/** Chooses `count` monthly instalments: the schedule's rows as read. */
async function chooseInstalments(plan: Locator, count: number): Promise<string[]> {
  await plan.getByRole('radio', { name: /monthly instalments, interest-free/ }).check();
  await plan.getByLabel('Number of instalments').selectOption(String(count));
  const rows = plan.getByRole('table', { name: 'Your payments' }).getByRole('row');
  await expect(rows).toHaveCount(count + 3);
  return rows.allTextContents();
}

/** The plan's parts as kept: (number, day, amount). */
function parts(orderId: string): [number, string, number][] {
  return query(
    `select i.number, i.due_on, i.amount from plan_instalment i join payment_plan p on p.id = i.plan_id where p.enrollment_id = '${orderId}' order by i.number`,
  ) as [number, string, number][];
}

/** Moves the development clock of booking `orderId`'s plan to 9 in the morning of `day` and runs the instalment job there: how many charges were taken on. */
async function runClockTo(request: APIRequestContext, orderId: string, day: string): Promise<number> {
  const answer = await request.post('/dev/clock/instalments', { data: { at: `${day}T09:00:00Z`, order: orderId } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { charged: number }).charged;
}

const payments = (orderId: string) =>
  (query(`select amount from payment where enrollment_id = '${orderId}' order by created_at`) as [number][]).map(([amount]) => amount);

test('three instalments on a £1,995 booking: the schedule shown, the card saved with the fee, each part charged on its day with a receipt', async ({ page, request }) => {
  const email = await signedInStudent(page, request);
  const { plan, form } = await checkoutFarDate(page);
  await expect(plan.getByRole('radio', { name: /^In one payment, by / })).toBeChecked();
  const rows = await chooseInstalments(plan, 3);
  expect(rows[1]).toBe('TodayBooking fee£100.00');
  expect(rows.slice(2, 5).map((row) => row.replace(/^.*\d{4}/, ''))).toEqual(['Instalment 1£631.68', 'Instalment 2£631.66', 'Instalment 3£631.66']);
  expect(rows[5]).toBe('Total£1,995.00');
  await expectNoAxeViolations(page);
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await plan.screenshot({ path: `/tmp/shots/checkout-instalments-${width}.png` });
  }

  // Paying without agreeing to the card being saved is refused beside the box.
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await form.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: /^Pay booking fee/ }).click();
  await expect(form.getByText(/Please agree to your card being saved for the instalments/)).toBeVisible();

  const orderId = await payBookingFee(page, form);
  await expect.poll(() => query(`select status, card_label from payment_plan where enrollment_id = '${orderId}'`)).toEqual([['active', 'Visa ending 4242']]);
  await lookAt(page, await mailTo(request, email, 'Your payment plan: 3 instalments'), 'payment-plan');

  const days = parts(orderId);
  expect(days.map(([, , amount]) => amount)).toEqual([63_168, 63_166, 63_166]);
  const paid = [10_000];
  for (const [number, day, amount] of days) {
    expect(await runClockTo(request, orderId, day), `instalment ${number} is charged on its day`).toBe(1);
    paid.push(amount);
    await expect.poll(() => payments(orderId)).toEqual(paid);
    expect(await runClockTo(request, orderId, day), 'and only once').toBe(0);
    expect(payments(orderId)).toEqual(paid);
  }
  expect(paid.reduce((sum, amount) => sum + amount, 0)).toBe(199_500);
  expect(query(`select status from enrollment where id = '${orderId}'`)).toEqual([['completed']]);
  expect(query(`select count(*) from mail_outbox where to_address = '${email}' and subject like 'Payment received%'`)).toEqual([[3]]);

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/account/bookings/');
  await hydrated(page);
  const schedule = page.getByRole('table', { name: 'Your payment plan: 3 monthly instalments' });
  await expect(schedule.getByRole('row').filter({ hasText: 'Paid' })).toHaveCount(3);
  await expect(page.getByText('Every instalment is paid. Thank you.')).toBeVisible();
  await expectNoAxeViolations(page);
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await schedule.screenshot({ path: `/tmp/shots/account-instalments-${width}.png` });
  }
});

test('a card the bank wants confirmed: one mail with a link that pays the instalment, then the rest paid off early from the account', async ({ page, request }) => {
  const email = await signedInStudent(page, request);
  const { plan, form } = await checkoutFarDate(page);
  await chooseInstalments(plan, 3);
  const orderId = await payBookingFee(page, form, '4000 0027 6000 3184');
  await expect.poll(() => query(`select status from payment_plan where enrollment_id = '${orderId}'`)).toEqual([['active']]);

  const [first, second] = parts(orderId).map(([, day]) => day);
  expect(await runClockTo(request, orderId, first ?? '')).toBe(0);
  expect(payments(orderId)).toEqual([10_000]);
  expect(query(`select i.status from plan_instalment i join payment_plan p on p.id = i.plan_id where p.enrollment_id = '${orderId}' order by i.number`))
    .toEqual([['retrying'], ['scheduled'], ['scheduled']]);
  const mail = await mailTo(request, email, 'Action needed: instalment 1 of £631.68');
  await lookAt(page, mail, 'instalment-refused');

  // The mail's button pays that instalment, its amount filled in, without signing in.
  const link = page.getByRole('link', { name: 'Pay instalment 1' });
  const address = new URL((await link.getAttribute('href'))!);
  const stranger = await page.context().browser()!.newPage({ viewport: { width: 390, height: 900 } });
  await stranger.goto(address.pathname + address.search);
  await hydrated(stranger);
  await expect(stranger.getByLabel('Amount to pay now (£)')).toHaveValue('631.68');
  await stranger.getByRole('button', { name: 'Continue to payment' }).click();
  const pay = stranger.getByRole('form', { name: 'Pay your balance' });
  await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await pay.getByLabel('Security code').fill('123');
  await pay.getByRole('button', { name: 'Pay £631.68' }).click();
  await expect(stranger.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible({ timeout: 15_000 });
  await stranger.close();
  await expect.poll(() => query(`select i.status from plan_instalment i join payment_plan p on p.id = i.plan_id where p.enrollment_id = '${orderId}' and i.number = 1`))
    .toEqual([['paid']]);

  // The rest paid off early from the account: nothing more is charged.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/account/bookings/');
  await hydrated(page);
  await expect(page.getByRole('table', { name: 'Your payment plan: 3 monthly instalments' })).toBeVisible();
  await page.getByRole('region', { name: 'Bookings' }).getByRole('button', { name: 'Pay £1,263.32' }).click();
  await page.waitForURL(/\/pay-balance\/\?token=[0-9a-f]+$/);
  await hydrated(page);
  await expect(page.getByLabel('Amount to pay now (£)')).toHaveValue('1263.32');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const rest = page.getByRole('form', { name: 'Pay your balance' });
  await rest.getByLabel('Card number').fill('4242 4242 4242 4242');
  await rest.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await rest.getByLabel('Security code').fill('123');
  await rest.getByRole('button', { name: 'Pay £1,263.32' }).click();
  await expect(page.getByText('Your training is paid in full. Thank you.')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => query(`select status from payment_plan where enrollment_id = '${orderId}'`)).toEqual([['completed']]);
  expect(await runClockTo(request, orderId, second ?? '')).toBe(0);
  expect(payments(orderId)).toEqual([10_000, 63_168, 126_332]);
  expect(query(`select count(*) from mail_outbox where to_address = '${email}' and subject like 'Action needed%'`)).toEqual([[1]]);
});

test('a booking paid without a plan takes monthly instalments on its balance page, and its card is changed there', async ({ page, request }) => {
  const email = await signedInStudent(page, request);
  const { form } = await checkoutFarDate(page);
  const orderId = await payBookingFee(page, form);
  expect(query(`select count(*) from payment_plan where enrollment_id = '${orderId}'`)).toEqual([[0]]);

  await page.goto('/account/bookings/');
  await hydrated(page);
  await page.getByRole('region', { name: 'Bookings' }).getByRole('button', { name: /^Pay £/ }).click();
  await page.waitForURL(/\/pay-balance\/\?token=[0-9a-f]+$/);
  await hydrated(page);
  const offer = page.getByRole('form', { name: 'Spread the rest in monthly instalments' });
  await offer.getByRole('radio', { name: /monthly instalments, interest-free/ }).check();
  await offer.getByLabel('Number of instalments').selectOption('2');
  await offer.getByRole('checkbox', { name: /the 2 instalments shown are taken from it/ }).check();
  await offer.getByRole('button', { name: 'Continue to your card' }).click();
  const card = page.getByRole('form', { name: 'Save your card' });
  await card.getByLabel('Card number').fill('4000 0000 0000 0341');
  await card.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await card.getByLabel('Security code').fill('123');
  await card.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByRole('table', { name: 'Your payment plan: 2 monthly instalments' })).toBeVisible();
  await expect(page.getByText(/taken from your Visa ending 0341 on its day/)).toBeVisible();
  expect(query(`select status from payment_plan where enrollment_id = '${orderId}'`)).toEqual([['active']]);
  await mailTo(request, email, 'Your payment plan: 2 instalments');
  await expectNoAxeViolations(page);
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.getByRole('region', { name: 'Your payment plan' }).screenshot({ path: `/tmp/shots/balance-plan-${width}.png` });
  }

  // The card is declined on the first instalment's day; another card pays it at the next run.
  const [first] = parts(orderId).map(([, day]) => day);
  expect(await runClockTo(request, orderId, first ?? '')).toBe(0);
  await mailTo(request, email, 'Action needed: instalment 1');
  await page.reload();
  await hydrated(page);
  await page.getByRole('button', { name: 'Use another card' }).click();
  await card.getByLabel('Card number').fill('4242 4242 4242 4242');
  await card.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await card.getByLabel('Security code').fill('123');
  await card.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByText(/taken from your Visa ending 4242 on its day/)).toBeVisible();
  expect(await runClockTo(request, orderId, first ?? '')).toBe(1);
  await expect.poll(() => payments(orderId).length).toBe(2);
});

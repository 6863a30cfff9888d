import type { APIRequestContext } from '@playwright/test';
import { execute, expect, expectNoAxeViolations, expectNoSidewaysScroll, query, test } from './fixtures';
import { addOwner, setUp } from './staff';

// Payment plans in the back office (decision 036) against the real server:
// a booking made through the site's own checkout API with a plan of three
// instalments, its booking fee paid by a card the sandbox saves, its first
// instalment refused; staff find it marked under Payment plans, pause it
// and resume it. The screen passes axe and
// fits a phone; screenshots go to E2E_SHOTS when it is set.

const SHOTS = process.env.E2E_SHOTS;
// A demo date 155 days away at £1,495: a plan of up to four months fits before its balance is due.
const COURSE = 'full-face-liquid-lift-masterclass';
const SESSION = `${COURSE}-3`;
const TOTAL = 149_500;
const FEE = 10_000;
const PARTS = 3;

/** Today in London, as the server counts days. */
const londonToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());

/** `day` (`YYYY-MM-DD`) `months` calendar months on, the 31st becoming a shorter month's last day, as `part_due_on` counts. */
function monthsOn(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date, last));
  return target.toISOString().slice(0, 10);
}

/** The parts the server offers: the balance in equal whole pence, the first carrying what is left over. */
function parts(agreedOn: string) {
  const balance = TOTAL - FEE;
  const each = Math.floor(balance / PARTS);
  return Array.from({ length: PARTS }, (_, index) => ({
    number: index + 1,
    dueOn: monthsOn(agreedOn, index + 1),
    amount: index === 0 ? each + (balance % PARTS) : each,
  }));
}

async function sent(answer: Awaited<ReturnType<APIRequestContext['post']>>): Promise<Record<string, unknown>> {
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

/** Books the date for `email` with a plan, as the checkout page would, and pays the fee by card: the order's id and reference. */
async function bookWithPlan(request: APIRequestContext, email: string): Promise<{ orderId: string; reference: string }> {
  const intent = await sent(await request.post('/api/checkout/', { data: { amount: FEE } }));
  const contact = { name: 'Pat', surname: 'Planner', email, phone: '07700 900789' };
  const enrollment = {
    total: TOTAL,
    deposit: FEE,
    balance: TOTAL - FEE,
    deposit_required: true,
    metadata: [{ courseId: COURSE, sessionId: SESSION, includeKit: false }],
    method: 'stripe',
    acct: null,
    status: 'pending',
    type: 'student',
    organization: null,
  };
  const agreed = { version: '2026-11-26', terms: true, entryRequirements: [COURSE] };
  const created = await sent(await request.post('/api/enroll/', { data: { data: { discount: null, contact, selected: 'card', mode: 'fee', enrollment, agreed, metadata: {} } } }));
  const orderId = created.id as string;
  const metadata = { 'Order ID': orderId, name: 'Pat', surname: 'Planner', phone: '+447700900789', email, type: 'booking-fee' };
  const plan = { parts: parts(londonToday()), cardConsent: true };
  const updated = await sent(await request.put('/api/checkout/', { data: { intent: intent.id, amount: FEE, customerId: null, email, metadata, plan } }));
  const card = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };
  await sent(
    await request.post(`/sandbox/payment_intents/${intent.id as string}/confirm`, {
      data: { client_secret: updated.client_secret, payment_method: 'card', card, return_url: `/enrolment/${orderId}` },
    }),
  );
  // The fee's event starts the plan with the saved card.
  await expect.poll(() => query(`select status from payment_plan where enrollment_id = '${orderId}'`)).toEqual([['active']]);
  const [[reference]] = query(`select reference from enrollment where id = '${orderId}'`) as [[string]];
  return { orderId, reference };
}

test('staff find a plan under Payment plans, pause it and resume it', async ({ page, request }) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const { orderId, reference } = await bookWithPlan(request, `plan-${stamp}@example.com`);
  // The bank refused the first instalment, as the job records a refusal it will try again.
  execute(
    `update plan_instalment set status = 'retrying', attempts = 1, last_error = 'Your card was declined.', next_attempt_at = '2099-01-01T09:00:00+00:00' ` +
      `where number = 1 and plan_id = (select id from payment_plan where enrollment_id = '${orderId}')`,
  );
  await setUp(page, addOwner(`plans-${stamp}@college.test`, 'Paula Plans'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Payment plans' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment plans' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Payment plans' }).getByRole('row').filter({ hasText: reference });
  await expect(row.getByRole('link', { name: reference, exact: true })).toHaveAttribute('href', `/admin/orders/${orderId}/`);
  await expect(row).toContainText('Visa ending 4242');
  await expect(row).toContainText('Needs attention');
  const plan = page.getByRole('region', { name: `${reference}: Pat Planner` });
  await expect(plan.getByRole('table', { name: `Instalments of ${reference}` }).getByRole('row')).toHaveCount(PARTS + 1);
  await expect(plan.getByText(/^Instalment 1 of .*was refused\. The bank said: Your card was declined\. The card is tried again/)).toBeVisible();
  await expectNoAxeViolations(page);

  await plan.getByRole('button', { name: `Pause the plan of ${reference}` }).click();
  await expect(plan.getByRole('status').filter({ hasText: 'Plan paused' })).toBeVisible();
  await expect(row).toContainText('Paused');
  await expect(row).toContainText('None while paused');
  expect(query(`select status from payment_plan where enrollment_id = '${orderId}'`)).toEqual([['paused']]);
  // Cancelling asks first; keeping it changes nothing.
  await plan.getByRole('button', { name: `Cancel the plan of ${reference}…` }).click();
  await expect(plan.getByRole('group')).toContainText('No instalment still to pay is charged to the Visa ending 4242');
  await expectNoAxeViolations(page);
  await plan.getByRole('button', { name: 'No, keep it' }).click();

  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await plan.scrollIntoViewIfNeeded();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/plans-admin-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoSidewaysScroll(page);

  await plan.getByRole('button', { name: `Resume the plan of ${reference}` }).click();
  await expect(plan.getByRole('status').filter({ hasText: 'Plan resumed' })).toBeVisible();
  await expect(row).toContainText('Active');
  expect(query(`select status from payment_plan where enrollment_id = '${orderId}'`)).toEqual([['active']]);

  // The order shows its plan, and the way back to it.
  await row.getByRole('link', { name: reference, exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Payment plan' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Instalments' }).getByRole('row')).toHaveCount(PARTS + 1);
  await expectNoAxeViolations(page);
});

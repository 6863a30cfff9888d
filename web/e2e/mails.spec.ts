import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, query, test } from './fixtures';
import { checkoutWith, payBookingFee, signedInStudent } from './accounts';

// The mails as their readers see them: in the college's letterhead, with
// the booking's reference, what to bring and the link to pay the balance
// as a button, and an enquiry acknowledged; each opened as a mail client
// shows its HTML part (the test server keeps the outbox at /dev/mailbox).

const COURSE = '/courses/aesthetics/chemical-peels/';

/** The newest mail to `to` whose subject starts with `subject`: its id. */
async function mailTo(to: string, subject: string): Promise<string> {
  let id = '';
  await expect
    .poll(() => {
      const rows = query(`select id from mail_outbox where to_address = '${to}' and subject like '${subject}%' order by created_at desc`) as string[][];
      id = rows[0]?.[0] ?? '';
      return id;
    }, { message: `a mail "${subject}" to ${to}` })
    .not.toBe('');
  return id;
}

/** Opens mail `id` as a mail client shows it, at both widths, and looks at it. */
async function lookAt(page: Page, id: string, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/dev/mailbox/${id}`);
    const logo = page.getByRole('img').first();
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth), 'the PNG logo loads').toBe(360);
    await expectNoSidewaysScroll(page);
    // A mail is read inside its mail client's page, which has the landmarks;
    // the mail marks itself as an article, as email accessibility guidance asks.
    const axe = await new AxeBuilder({ page }).disableRules(['landmark-one-main', 'region']).analyze();
    expect(axe.violations.map((v) => v.id), 'axe violations').toEqual([]);
    await page.screenshot({ path: `/tmp/shots/mail-${name}-${width}.png`, fullPage: true });
  }
}

test('a booking is confirmed by a mail in the letterhead, with its reference, what to bring and a button to pay the balance', async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = await signedInStudent(page, request);
  const orderId = await payBookingFee(page, await checkoutWith(page, COURSE));
  const [[reference]] = query(`select reference from enrollment where id = '${orderId}'`) as [[string]];
  expect(reference).toMatch(/^B-[0-9A-HJKMNP-TV-Z]{5}$/);
  const confirmation = page.url();
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(confirmation);
    await hydrated(page);
    await expect(page.getByText(`Booking reference: ${reference}`)).toBeVisible();
    await expect(page.getByRole('table', { name: `Your booking ${reference}` })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto('/account/bookings/');
    await hydrated(page);
    await expect(page.getByRole('region', { name: 'Bookings' }).getByText(`Booking ${reference}, made`)).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `/tmp/shots/reference-account-${width}.png` });
  }

  const id = await mailTo(email, 'Your Calderbrook Academy booking is confirmed');
  await page.goto(`/dev/mailbox/${id}`);
  await expect(page.getByText(`Booking reference ${reference}`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'What to bring' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Photo ID' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Paid today' })).toBeVisible();
  const pay = page.getByRole('link', { name: 'Pay online' });
  await expect(pay).toHaveAttribute('href', /\/pay-balance\/\?token=/);
  await expect(page.getByRole('link', { name: /^Your receipt RCT-/ })).toHaveAttribute('href', /\/api\/receipts\/RCT-\d+\?token=/);
  await lookAt(page, id, 'booking-confirmed');

  // The button is the link the plain text carries: it opens the balance in any browser.
  await page.goto(`/dev/mailbox/${id}`);
  const payLink = new URL((await pay.getAttribute('href'))!);
  await page.goto(payLink.pathname + payLink.search);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Pay your balance' })).toBeVisible();
  await expect(page.getByRole('table', { name: `Your booking ${reference}` })).toBeVisible();
});

test('a course page lists what to bring, as its booking confirmation does', async ({ page }) => {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(COURSE);
    await hydrated(page);
    const bring = page.getByRole('region', { name: 'What to bring' });
    await expect(bring.getByRole('listitem')).toHaveText([
      'Photo ID: a passport or a photocard driving licence',
      'Your own clinical tunic or scrubs, with closed-toe shoes and hair tied back',
      'A notepad and pen',
      "Your model's name and phone number, if you are bringing your own",
    ]);
    await expectNoAxeViolations(page);
    await bring.screenshot({ path: `/tmp/shots/course-what-to-bring-${width}.png` });
  }
});

test('an enquiry is acknowledged in the letterhead without repeating what was typed', async ({ page }) => {
  const email = `enquirer-${Date.now()}@example.com`;
  await page.goto('/contact/');
  await hydrated(page);
  await page.getByLabel('Your name').fill('Jo Reader');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Your message').fill('Do you run weekend courses?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('status').filter({ hasText: /thank/i })).toBeVisible();

  const id = await mailTo(email, 'We have your message');
  await page.goto(`/dev/mailbox/${id}`);
  await expect(page.getByRole('paragraph').filter({ hasText: 'One of our team will reply within one working day.' })).toBeVisible();
  await expect(page.getByText('weekend')).toHaveCount(0);
  await lookAt(page, id, 'enquiry-acknowledged');
});

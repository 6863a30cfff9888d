import { expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, query, test } from './fixtures';
import { checkoutWith, payBookingFee, signedInStudent } from './accounts';
import { lookAt, mailTo } from './mailbox';

// The mails as their readers see them: in the college's letterhead, with
// the booking's reference, what to bring and the link to pay the balance
// as a button, and an enquiry acknowledged; each opened as a mail client
// shows its HTML part (the test server keeps the outbox at /dev/mailbox).

const COURSE = '/courses/aesthetics/chemical-peels/';

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

  const mail = await mailTo(request, email, 'Your Calderbrook Academy booking is confirmed');
  await page.goto(mail);
  await expect(page.getByText(`Booking reference ${reference}`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'What to bring' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Photo ID' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Paid today' })).toBeVisible();
  const pay = page.getByRole('link', { name: 'Pay online' });
  await expect(pay).toHaveAttribute('href', /\/pay-balance\/\?token=/);
  await expect(page.getByRole('link', { name: /^Your receipt RCT-/ })).toHaveAttribute('href', /\/api\/receipts\/RCT-\d+\?token=/);
  await lookAt(page, mail, 'booking-confirmed');

  // The button is the link the plain text carries: it opens the balance in any browser.
  await page.goto(mail);
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

test('an enquiry is acknowledged in the letterhead without repeating what was typed', async ({ page, request }) => {
  const email = `enquirer-${Date.now()}@example.com`;
  await page.goto('/contact/');
  await hydrated(page);
  await page.getByLabel('Your name').fill('Jo Reader');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Your message').fill('Do you run weekend courses?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('status').filter({ hasText: /thank/i })).toBeVisible();

  const mail = await mailTo(request, email, 'We have your message');
  await page.goto(mail);
  await expect(page.getByRole('paragraph').filter({ hasText: 'One of our team will reply within one working day.' })).toBeVisible();
  await expect(page.getByText('weekend')).toHaveCount(0);
  await lookAt(page, mail, 'enquiry-acknowledged');
});

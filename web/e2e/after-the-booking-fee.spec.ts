import type { Page } from '@playwright/test';
import { execute, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, mailedLink, query, test } from './fixtures';
import { checkoutWith, freshEmail, payBookingFee, signedInStudent } from './accounts';

// After the booking fee (decision 015): the booking's calendar invite, and the
// balance paid from the account, in part and then in full, each payment
// receipted once; the link the account opens works without signing in, as
// a reminder mail's does.

const COURSE = '/courses/cpd/aesthetic-complications/';

async function payByCard(page: Page, amount: string) {
  await page.getByRole('form', { name: 'Amount to pay' }).getByLabel('Amount to pay now (£)').fill(amount);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const form = page.getByRole('form', { name: 'Pay your balance' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await form.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: `Pay £${amount}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible({ timeout: 15_000 });
}

test('a student adds her booking to her calendar and pays its balance from the account, in part and then in full', async ({ page, request }) => {
  const email = await signedInStudent(page, request);
  const orderId = await payBookingFee(page, await checkoutWith(page, COURSE));
  const invite = await page.request.get(await page.getByRole('link', { name: 'Add to calendar' }).getAttribute('href') ?? '');
  expect(invite.headers()['content-type']).toBe('text/calendar; charset=utf-8; method=PUBLISH');
  // Long lines are folded (RFC 5545 §3.1): unfolded, the entry's UID names the booking and the course.
  expect((await invite.text()).replaceAll('\r\n ', '')).toContain(`UID:booking-${orderId}-aesthetic-complications@enrol`);
  const [[total]] = query(`select total from enrollment where id = '${orderId}'`) as [[number]];
  const balance = total - 10_000;

  await page.goto('/account/bookings/');
  await hydrated(page);
  await page.getByRole('region', { name: 'Bookings' }).getByRole('button', { name: /^Pay £/ }).click();
  await page.waitForURL(/\/pay-balance\/\?token=[0-9a-f]+$/);
  await hydrated(page);
  const payLink = new URL(page.url()).pathname + new URL(page.url()).search;
  await expect(page.getByRole('heading', { level: 1, name: 'Pay your balance' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The server's rules, said beside the field before anything is sent.
  await page.getByLabel('Amount to pay now (£)').fill('5');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('Please pay at least £10.00.')).toBeVisible();
  await expect(page.getByLabel('Amount to pay now (£)')).toBeFocused();

  await payByCard(page, '100.00');
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^£${((balance - 10_000) / 100).toFixed(2)}`) })).toBeVisible();
  await expectNoAxeViolations(page);

  // The link works in a browser that is not signed in, as a mailed one does.
  const stranger = await page.context().browser()!.newPage({ viewport: { width: 320, height: 720 } });
  await stranger.goto(payLink);
  await hydrated(stranger);
  await expect(stranger.getByRole('heading', { level: 1, name: 'Pay your balance' })).toBeVisible();
  await expectNoSidewaysScroll(stranger);
  await payByCard(stranger, ((balance - 10_000) / 100).toFixed(2));
  await expect(stranger.getByText('Your training is paid in full. Thank you.')).toBeVisible();
  await stranger.close();

  expect(query(`select status from enrollment where id = '${orderId}'`)).toEqual([['completed']]);
  expect(query(`select count(*) from mail_outbox where to_address = '${email}' and subject like 'Payment received%'`)).toEqual([[2]]);
  await page.goto('/account/bookings/');
  await hydrated(page);
  await expect(page.getByRole('region', { name: 'Bookings' }).getByText('Paid in full')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Bookings' }).getByRole('button', { name: /^Pay £/ })).toHaveCount(0);

  // Three payments, three receipts in the account; the last one opens.
  await page.goto('/account/payments/');
  await hydrated(page);
  const receipts = page.getByRole('region', { name: 'Payments' }).getByRole('link', { name: /^Receipt RCT-\d{6}$/ });
  await expect(receipts).toHaveCount(3);
  const receipt = await page.request.get((await receipts.first().getAttribute('href'))!);
  expect(receipt.status()).toBe(200);
  expect(await receipt.text()).toContain(((balance - 10_000) / 100).toFixed(2));
});

test('an unknown or expired payment link says what to do instead', async ({ page }) => {
  await page.goto('/pay-balance/?token=0123456789abcdef');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'This payment link has expired' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in to your account' })).toHaveAttribute('href', '/sign-in/');
  await expectNoAxeViolations(page);
});

// The tests that count a date's seats each book a course no other browser
// test books, as the tests run side by side.
const CANCELLED_COURSE = '/courses/aesthetics/bb-glow/';
const MOVED_COURSE = '/courses/aesthetics/hifu-skin-tightening/';

/** Free seats of `session` of `course` on its page, as a visitor sees them. */
async function freeSeats(page: Page, course: string, session: string): Promise<number> {
  type Seats = { id: string; seats: number; registrations: number; held: number };
  const data = (await (await page.request.get(`/api/page-data?path=${encodeURIComponent(course)}`)).json()) as {
    page: { sessions: Seats[]; fullSessions: Seats[] };
  };
  const found = [...data.page.sessions, ...data.page.fullSessions].find((s) => s.id === session)!;
  return Math.max(0, found.seats - found.registrations - found.held);
}

test('a student cancels within 14 days: the terms are shown first, everything is refunded and the seat is back on sale', async ({ page, request }) => {
  const email = await signedInStudent(page, request);
  const orderId = await payBookingFee(page, await checkoutWith(page, CANCELLED_COURSE));
  const [[lines]] = query(`select lines from enrollment where id = '${orderId}'`) as [[string]];
  const session = (JSON.parse(lines) as { sessionId: string }[])[0]!.sessionId;
  const seatsWhileBooked = await freeSeats(page, CANCELLED_COURSE, session);

  await page.goto('/account/bookings/');
  await hydrated(page);
  const bookings = page.getByRole('region', { name: 'Bookings' });
  await bookings.getByRole('button', { name: 'Cancel booking' }).click();
  const confirm = bookings.getByRole('region', { name: 'Cancel this booking?' });
  await expect(confirm.getByText(/booking fee included/)).toBeVisible();
  await expect(confirm.getByText('You will be refunded £100.00.')).toBeVisible();
  await expect(confirm.getByRole('link', { name: 'Read our terms and conditions' })).toHaveAttribute('href', '/terms-and-conditions/');
  await expectNoAxeViolations(page);
  await confirm.getByRole('button', { name: 'Yes, cancel my booking' }).click();
  await expect(bookings.getByText('Cancelled')).toBeVisible();
  await expect(bookings.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);

  expect(query(`select r.amount, r.status from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '${orderId}'`)).toEqual([[10_000, 'succeeded']]);
  expect(await freeSeats(page, CANCELLED_COURSE, session)).toBe(seatsWhileBooked + 1);
  expect(query(`select count(*) from mail_outbox where to_address = '${email}' and subject like '%booking is cancelled'`)).toEqual([[1]]);
});

test('a student moves her booking to another date: the new seat is hers, the old one is back on sale', async ({ page, request }) => {
  const email = await signedInStudent(page, request);
  const orderId = await payBookingFee(page, await checkoutWith(page, MOVED_COURSE));
  const sessionOf = () => (JSON.parse((query(`select lines from enrollment where id = '${orderId}'`) as [[string]])[0][0]) as { sessionId: string }[])[0]!.sessionId;
  const from = sessionOf();
  const freeBefore = await freeSeats(page, MOVED_COURSE, from);

  await page.goto('/account/bookings/');
  await hydrated(page);
  const bookings = page.getByRole('region', { name: 'Bookings' });
  await bookings.getByRole('button', { name: 'Change date' }).click();
  const dates = bookings.getByRole('group', { name: /, now on / });
  await dates.getByRole('radio').first().check();
  await expectNoAxeViolations(page);
  await dates.getByRole('button', { name: 'Move to this date' }).click();
  await expect(bookings.getByRole('button', { name: 'Change date' })).toBeVisible();

  const to = sessionOf();
  expect(to).not.toBe(from);
  expect(await freeSeats(page, MOVED_COURSE, from)).toBe(freeBefore + 1);
  expect(query(`select session_id from registration where enrollment_id = '${orderId}'`)).toEqual([[to]]);
  expect(query(`select count(*) from mail_outbox where to_address = '${email}' and subject like 'Your new date for%' and attachment_name = 'booking.ics'`)).toEqual([[1]]);
});

test('a visitor joins a full date’s waiting list, confirms by the mail, a seat frees, and she claims it from the mail and books', async ({ page, request }) => {
  const [[url]] = query("select url from course where id = 'chemical-peels'") as [[string]];
  const [[full]] = query(
    "select id from session where event_id = 'chemical-peels' and registrations + holds + offered >= seats and date >= date('now') order by date limit 1",
  ) as [[string]];
  const email = freshEmail();
  await page.goto(url);
  await hydrated(page);
  await page.getByRole('region', { name: 'Fully booked dates' }).getByRole('link', { name: /^Join the waiting list/ }).first().click();
  await expect(page).toHaveURL(`/waiting-list/join/?session=${full}`);
  await hydrated(page);
  const form = page.getByRole('form', { name: /^Waiting list for / });
  await form.getByLabel('First name').fill('Nia');
  await form.getByLabel('Last name').fill('Roberts');
  await form.getByLabel('Email').fill(email);
  await expectNoAxeViolations(page);
  await form.getByRole('button', { name: 'Join the waiting list' }).click();
  await expect(page.getByRole('status')).toContainText('Check your email to confirm your place.');
  expect(query(`select status from waiting_list_entry where email = '${email}'`)).toEqual([['unconfirmed']]);

  // Nia confirms from the mail: only now does she wait.
  await page.goto(await mailedLink(request, email, '/waiting-list/confirm/'));
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your place' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Confirm my place' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are on the waiting list' })).toBeVisible();
  expect(query(`select status from waiting_list_entry where email = '${email}'`)).toEqual([['waiting']]);

  // A seat is added; someone else who waited leaves, and the seat is offered to Nia, first in line.
  const other = freshEmail();
  expect((await request.post('/api/waiting-list', { data: { sessionId: full, firstName: 'Tom', lastName: 'Lee', email: other, phone: '' } })).status()).toBe(202);
  const confirm = new URLSearchParams((await mailedLink(request, other, '/waiting-list/confirm/')).split('?')[1]).get('token');
  expect((await request.post('/api/waiting-list/confirm', { data: { token: confirm } })).status()).toBe(200);
  execute(`update session set seats = seats + 1 where id = '${full}'`);
  const leave = new URLSearchParams((await mailedLink(request, other, '/waiting-list/leave/')).split('?')[1]).get('token');
  expect((await (await request.post('/api/waiting-list/leave', { data: { token: leave } })).json()) as { left: boolean }).toEqual({ left: true });

  await page.goto(await mailedLink(request, email, '/waiting-list/claim/'));
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'A seat is free for you' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Claim my seat and book' }).click();
  await expect(page).toHaveURL('/checkout/');
  await hydrated(page);
  await expect(page.getByText('Preparing your checkout')).toBeHidden();
  const checkout = page.getByRole('form', { name: 'Enrol and pay' });
  await checkout.getByLabel('First name').fill('Nia');
  await checkout.getByLabel('Last name').fill('Roberts');
  await checkout.getByLabel('Email').fill(email);
  await checkout.getByLabel('Phone number').fill('07700 900789');
  const orderId = await payBookingFee(page, checkout);

  expect(query(`select session_id from registration where enrollment_id = '${orderId}'`)).toEqual([[full]]);
  expect(query(`select status from waiting_list_entry where email = '${email}'`)).toEqual([['claimed']]);
});

test('the balance reminder’s link pays without signing in, and the receipt it mails opens', async ({ page, request, browser }) => {
  const email = freshEmail();
  const checkout = await checkoutWith(page, COURSE);
  await checkout.getByLabel('First name').fill('Ada');
  await checkout.getByLabel('Last name').fill('Okoro');
  await checkout.getByLabel('Email').fill(email);
  await checkout.getByLabel('Phone number').fill('07700 900321');
  const orderId = await payBookingFee(page, checkout);
  // Booked yesterday: the reminder job (every second here) finds its balance due within a week.
  execute(`update enrollment set paid_at = strftime('%Y-%m-%d %H:%M:%S+00:00', 'now', '-1 day') where id = '${orderId}'`);
  const link = await mailedLink(request, email, '/pay-balance/');

  const signedOut = await browser.newPage();
  await signedOut.goto(link);
  await hydrated(signedOut);
  await expect(signedOut.getByRole('heading', { level: 1, name: 'Pay your balance' })).toBeVisible();
  const [[total]] = query(`select total from enrollment where id = '${orderId}'`) as [[number]];
  await payByCard(signedOut, ((total - 10_000) / 100).toFixed(2));
  await expect(signedOut.getByText('Your training is paid in full. Thank you.')).toBeVisible();

  const receipt = await mailedLink(request, email, '/api/receipts/');
  await signedOut.goto(receipt);
  await expect(signedOut.getByText(/RCT-\d{6}/).first()).toBeVisible();
  await expect(signedOut.getByText(/Ada Okoro/).first()).toBeVisible();
  await signedOut.close();
});

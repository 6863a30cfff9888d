import type { Browser, Page } from '@playwright/test';
import { checkoutWith, payBookingFee, signedInStudent } from './accounts';
import { chooseDate, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, mailedLink, query, test } from './fixtures';
import { STAFF_PASSWORD, addOwner, freshCode, setUp } from './staff';

// The back office (decision 017) in a real browser against the
// real server: the first owner from the command line, staff added in the
// browser who sign in with a second factor, sessions and rosters run by
// staff, and a tutor whom the server refuses everything but their roster.

/** Signs in at /admin/sign-in/ with the password and a fresh code. */
async function signIn(page: Page, email: string, secret: string) {
  await page.goto('/admin/sign-in/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByLabel('Code from your authenticator app').fill(freshCode(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A second browser of its own (its own cookies), as a colleague at another desk. */
async function colleague(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

test('an owner adds staff and a tutor, who set up a second factor; staff open a date; the tutor reads only their roster', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const owner = { email: `owner-${stamp}@college.test`, name: 'Olivia Owner' };
  const staff = { email: `staff-${stamp}@college.test`, name: 'Sasha Staff' };
  const tutor = { email: `tutor-${stamp}@college.test`, name: `Tia Tutor ${stamp}` };

  // The first owner: made on the command line, set up in the browser.
  await setUp(page, addOwner(owner.email, owner.name));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The owner adds a staff member and a tutor; each gets a mailed set-up link.
  await page.getByRole('navigation').getByRole('link', { name: 'Staff' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
  for (const [person, role] of [[staff, 'Staff'], [tutor, 'Tutor']] as const) {
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Name').fill(person.name);
    await page.getByLabel('Role').selectOption({ label: role });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText(person.email)).toBeVisible();
  }
  await expectNoAxeViolations(page);

  const staffPage = await colleague(browser, baseURL);
  const staffSecret = await setUp(staffPage, await mailedLink(request, staff.email, '/admin/setup/'));
  await expect(staffPage.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // Signed out and in again: the password and a new code.
  await staffPage.getByRole('button', { name: 'Sign out' }).click();
  // The sign-in screen shows once the server has ended the session; going
  // to it sooner can leave the sign-out unsent and the session alive.
  await expect(staffPage.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await signIn(staffPage, staff.email, staffSecret);
  await expect(staffPage.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(staffPage.getByRole('navigation').getByRole('link', { name: 'Staff' }), 'staff do not manage staff').toHaveCount(0);

  // Staff open a new date with the tutor; it is on the public calendar at once.
  await staffPage.getByRole('navigation').getByRole('link', { name: 'Sessions' }).click();
  await staffPage.getByRole('link', { name: 'New session' }).click();
  const date = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
  await staffPage.getByLabel('Course').selectOption({ label: 'Chemical Peels Course' });
  await staffPage.getByLabel('Date').fill(date);
  await staffPage.getByLabel('Start time').fill('10:00');
  await staffPage.getByLabel('End time').fill('15:00');
  await staffPage.getByRole('radio', { name: 'On site' }).check();
  await staffPage.getByLabel('Price (£)').fill('650');
  await staffPage.getByLabel('Seats').fill('6');
  await staffPage.getByLabel('Venue').fill('Studio 3');
  await staffPage.getByLabel('Tutor').selectOption({ label: tutor.name });
  await expectNoAxeViolations(staffPage);
  await staffPage.getByRole('button', { name: 'Create the session' }).click();
  await expect(staffPage.getByText('Session created.')).toBeVisible();
  const calendar = await page.context().newPage();
  await calendar.goto(`/training-course-calendar/?from=${date.slice(0, 7)}`);
  const month = new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric' });
  const listed = calendar.locator('.calendar-month').filter({ has: calendar.getByRole('heading', { name: month }) });
  await expect(listed.getByText('Chemical Peels Course')).toBeVisible();

  // The tutor sets up and sees only their session's roster; the server refuses the rest.
  const tutorPage = await colleague(browser, baseURL);
  await setUp(tutorPage, await mailedLink(request, tutor.email, '/admin/setup/'));
  await expect(tutorPage.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  const nav = tutorPage.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Orders' })).toHaveCount(0);
  await expect(tutorPage.getByRole('row')).toHaveCount(2);
  await tutorPage.getByRole('link', { name: /^Roster for Chemical Peels Course/ }).first().click();
  await expect(tutorPage.getByRole('heading', { level: 1, name: /^Roster: Chemical Peels Course/ })).toBeVisible();
  await expect(tutorPage.getByText('Nobody is booked on this session yet.')).toBeVisible();
  const downloading = tutorPage.waitForEvent('download');
  await tutorPage.getByRole('link', { name: 'Download as CSV' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^roster-.*chemical-peels\.csv$/);
  await expectNoAxeViolations(tutorPage);
  for (const path of ['/api/admin/orders', '/api/admin/dashboard', '/api/admin/audit', '/api/admin/codes', '/api/admin/enquiries', '/api/admin/staff']) {
    const refused = await tutorPage.request.get(path);
    expect(refused.status(), path).toBe(403);
  }
  const opened = await tutorPage.request.post('/api/admin/sessions', { data: {} });
  expect(opened.status()).toBe(403);

  for (const shown of [page, staffPage, tutorPage]) {
    await shown.setViewportSize({ width: 320, height: 640 });
    await expectNoSidewaysScroll(shown);
  }
});

test('staff make a code that works at checkout, answer a payment-plan request and export the payments', async ({ page, browser, baseURL, request }) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  await setUp(page, addOwner(`owner-codes-${stamp}@college.test`, 'Omar Owner'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // A code for one course only.
  const code = `E2E${stamp}`;
  await page.getByRole('navigation').getByRole('link', { name: 'Codes' }).click();
  await page.getByRole('link', { name: 'New code' }).click();
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
  await page.getByRole('radio', { name: 'A percentage off' }).check();
  await page.getByRole('textbox', { name: 'Discount', exact: true }).fill('15');
  await page.getByRole('checkbox', { name: 'Chemical Peels Course' }).check();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create the code' }).click();
  await expect(page.getByText(code).first()).toBeVisible();

  // A buyer uses it at checkout: 15% off the course it is for.
  const buyer = await colleague(browser, baseURL);
  await buyer.goto('/courses/aesthetics/chemical-peels/');
  await hydrated(buyer);
  await buyer.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect(buyer.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();
  await buyer.goto('/checkout/');
  await expect(buyer.getByText('Preparing your checkout')).toBeHidden();
  await buyer.getByLabel('Discount code').fill(code);
  await buyer.getByRole('button', { name: 'Apply' }).click();
  await expect(buyer.getByText(`Discount code ${code.toUpperCase()}`, { exact: true })).toBeVisible();

  // A payment-plan request from the site, answered in the inbox.
  const planner = `Pat Planner${stamp}`;
  const asked = await request.post('/api/callback/', {
    data: { first_name: 'Pat', last_name: `Planner${stamp}`, email: `pat-${stamp}@example.com`, phone_number: '07700 900456', courses: ['Foundation Dermal Fillers'], type: 'finance' },
  });
  expect(asked.ok()).toBe(true);
  await page.getByRole('navigation').getByRole('link', { name: 'Enquiries' }).click();
  const card = page.locator('li.enquiry').filter({ hasText: planner });
  await card.locator('summary').click();
  await expect(card.getByText('Foundation Dermal Fillers')).toBeVisible();
  await card.getByLabel('Status').selectOption({ label: 'In progress' });
  await card.getByLabel('Owner').selectOption({ label: 'Omar Owner' });
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByLabel('New note').fill('Called Pat: three monthly payments agreed.');
  await card.getByRole('button', { name: 'Add the note' }).click();
  await expect(card.getByText('Called Pat: three monthly payments agreed.')).toBeVisible();
  await expect(card.locator('summary')).toContainText('In progress');
  await expectNoAxeViolations(page);

  // The accountant's payments file, downloaded as a file.
  await page.getByRole('navigation').getByRole('link', { name: 'Exports' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Payments (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^payments-.*\.csv$/);
  const { readFile } = await import('node:fs/promises');
  const csv = await readFile(await download.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toContain('"Payment","Received","Order reference","Order"');

  // The audit log shows what was done, by whom.
  await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('cell', { name: 'code.create' }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'enquiry.note' }).first()).toBeVisible();
});

test('staff read a code past its last day as expired, the audit log in words, the dashboard\'s e-learning and enquiries, and one count of who is booked', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  await setUp(page, addOwner(`owner-reads-${stamp}@college.test`, 'Rae Owner'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'This week' }).getByText('E-learning sold')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Enquiries' }).getByRole('link', { name: /enquir/ })).toHaveAttribute('href', '/admin/enquiries/?status=new');

  // A code whose last day has passed, switched on: expired, with no expiry to offer.
  const code = `OLD${stamp}`;
  await page.getByRole('navigation').getByRole('link', { name: 'Codes' }).click();
  await page.getByRole('link', { name: 'New code' }).click();
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
  await page.getByRole('radio', { name: 'A percentage off' }).check();
  await page.getByRole('textbox', { name: 'Discount', exact: true }).fill('10');
  await page.getByLabel(/Expires on/).fill('2020-01-31');
  await page.getByRole('button', { name: 'Create the code' }).click();
  await expect(page.getByText('This code has expired: nobody can use it.')).toBeVisible();
  await page.getByRole('navigation').getByRole('link', { name: 'Codes' }).click();
  await expect(page.getByRole('row').filter({ hasText: code })).toContainText('Expired');
  await expect(page.getByRole('row').filter({ hasText: 'WELCOME10' })).toContainText('Active');

  // The demo's first peels date counts 4 seats taken before the site: the session's page and its roster agree on the rest.
  await page.goto('/admin/sessions/chemical-peels-1/');
  const seats = page.getByText(/\d+ booked(, | and )4 taken elsewhere/);
  await expect(seats).toBeVisible();
  const booked = Number((await seats.textContent())!.match(/(\d+) booked/)![1]);
  await page.getByRole('link', { name: 'Open the roster' }).click();
  await expect(page.getByText(/^4 more seats are counted as taken without a booking on this site/)).toBeVisible();
  if (booked === 0) await expect(page.getByText('Nobody is booked on this session yet.')).toBeVisible();
  else await expect(page.getByRole('table').getByRole('row')).toHaveCount(booked + 1);

  // The audit log in words, with the codes beside them.
  await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('cell', { name: /Discount code created\s*code\.create/ }).first()).toBeVisible();
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/admin/', '/admin/codes/', '/admin/audit/', '/admin/sessions/chemical-peels-1/roster/']) {
      await page.goto(path);
      await expect(page.locator('[aria-busy="true"], [role="status"]:text-matches("^Loading")')).toHaveCount(0);
      await expectNoAxeViolations(page);
      if (width === 390) await expectNoSidewaysScroll(page);
    }
  }
});

/** Books `sessionId` of the course at `url` as a new signed-in student in a browser of their own, paying the booking fee: the order's id. */
async function bookAsStudent(browser: Browser, baseURL: string | undefined, url: string, sessionId: string): Promise<string> {
  const student = await colleague(browser, baseURL);
  await signedInStudent(student, student.request);
  const form = await checkoutWith(student, url);
  await chooseDate(student.getByRole('region', { name: 'Your selected courses' }), sessionId);
  return payBookingFee(student, form);
}

test('staff move one booking to a new date and take its balance by bank transfer, and refund another', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  await setUp(page, addOwner(`owner-orders-${stamp}@college.test`, 'Ola Owner'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // Two new dates of a course no other browser test books.
  const open = async (days: number) => {
    const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const data = { courseId: 'polynucleotides', date, startTime: '09:30', endTime: '16:30', type: 'onsite', price: 80_000, seats: 4, venue: 'Studio 1', joiningLink: null, tutorId: null };
    const opened = await page.request.post('/api/admin/sessions', { data });
    expect(opened.status()).toBe(201);
    return ((await opened.json()) as { id: string }).id;
  };
  const [first, later] = [await open(150 + (stamp % 20)), await open(190 + (stamp % 20))];
  const url = String(query("select url from course where id = 'polynucleotides'")[0]![0]);
  const moving = await bookAsStudent(browser, baseURL, url, first);
  const refunded = await bookAsStudent(browser, baseURL, url, first);

  // The first booking moves to the later date, then its balance comes by bank transfer.
  await page.getByRole('navigation').getByRole('link', { name: 'Orders' }).click();
  // By its reference as the student reads it out on the phone: in lower case, with a space.
  const reference = String(query(`select reference from enrollment where id = '${moving}'`)[0]![0]);
  expect(reference).toMatch(/^B-[0-9A-HJKMNP-TV-Z]{5}$/);
  await page.getByLabel('Name, email or reference').fill(reference.toLowerCase().replace('-', ' '));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('table', { name: 'Orders found' }).getByRole('row')).toHaveCount(2);
  await page.getByRole('link', { name: reference, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order ${reference}` })).toBeVisible();
  await expect(page.getByText(moving, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'What was booked' })).toBeVisible();
  await expectNoAxeViolations(page);
  const move = page.getByRole('region', { name: 'Move a booking' });
  await move.getByLabel('Move to').selectOption(later);
  await move.getByRole('button', { name: 'Move the booking' }).click();
  await expect(move.getByText(/Booking moved/)).toBeVisible();
  expect(query(`select session_id from registration where enrollment_id = '${moving}' and type = 'STUDENT'`)).toEqual([[later]]);
  const balance = Number(query(`select total - deposit from enrollment where id = '${moving}'`)[0]![0]);
  const payment = page.getByRole('region', { name: 'Record a payment' });
  await payment.getByLabel('Amount paid (£)').fill((balance / 100).toFixed(2));
  await payment.getByRole('radio', { name: 'Bank transfer' }).check();
  await payment.getByLabel('Reference').fill(`BACS ${stamp}`);
  await payment.getByRole('button', { name: 'Record the payment' }).click();
  await expect.poll(() => query(`select status from enrollment where id = '${moving}'`)[0]![0]).toBe('completed');

  // The second booking gets £50 back through the payment provider.
  await page.goto(`/admin/orders/${refunded}/`);
  const refund = page.getByRole('region', { name: 'Refund' });
  await refund.getByLabel('Amount to refund (£)').fill('50');
  await refund.getByLabel('Reason').fill('Goodwill: the venue changed');
  await refund.getByRole('button', { name: 'Refund…' }).click();
  await expect(refund.getByRole('group', { name: 'Refund £50.00 the way it was paid?' })).toBeFocused();
  await refund.getByRole('button', { name: 'Yes, refund' }).click();
  await expect.poll(() => query(`select count(*) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '${refunded}' and r.amount = 5000`)[0]![0]).toBe(1);
  await expect(page.getByRole('cell', { name: 'order.refund' }).first()).toBeVisible();
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoSidewaysScroll(page);
});

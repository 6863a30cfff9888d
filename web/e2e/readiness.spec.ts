import type { Browser, Locator, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, mailedLink, query, test } from './fixtures';
import { checkoutWith, payBookingFee, signedInStudent } from './accounts';
import { lookAt, mailTo } from './mailbox';
import { addOwner, setUp } from './staff';

// Ready for training (decisions 032 and 033) as the student and the college
// meet it: a paid booking's forms and document in the account with their
// deadline; the medical form answered, a document sent, turned down with a
// reason the student is mailed, sent again and accepted; the roster shows
// the student ready once the balance is paid; a tutor of another session is
// refused the student's answers.

const COURSE = '/courses/aesthetics/chemical-peels/';
const DOCUMENT = 'Level 2 or 3 beauty qualification, or healthcare registration';
const REASON = 'The photo is blurred: please scan the whole certificate again.';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const account = (page: Page, name: string) => page.getByRole('region', { name });

async function look(page: Page, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `/tmp/shots/${name}-${width}.png`, fullPage: true });
  }
  await expectNoAxeViolations(page);
}

async function sendDocument(page: Page): Promise<Locator> {
  await page.goto('/account/documents/');
  await hydrated(page);
  const evidence = account(page, 'Documents').getByRole('region', { name: DOCUMENT });
  await evidence.getByLabel(`Choose a file for ${DOCUMENT}`).setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: PDF });
  await evidence.getByRole('button', { name: 'Send file' }).click();
  await expect(evidence.getByRole('status')).toHaveText('certificate.pdf is sent.');
  return evidence;
}

async function colleague(browser: Browser, baseURL: string | undefined): Promise<Page> {
  return (await browser.newContext({ baseURL })).newPage();
}

test('a booked student’s forms and document are reviewed by staff before training, and the roster shows her ready', async ({ page, browser, baseURL, request }) => {
  test.setTimeout(150_000);
  const email = await signedInStudent(page, request);
  const orderId = await payBookingFee(page, await checkoutWith(page, COURSE));
  const [[sessionId]] = query(`select session_id from registration where enrollment_id = '${orderId}'`) as [[string]];

  // What is left, with its deadline, under the booking and on the account's first page.
  await page.goto('/account/bookings/');
  await hydrated(page);
  const underBooking = account(page, 'Bookings').getByRole('list', { name: /^Still to do before the training of booking / });
  await expect(underBooking.getByRole('listitem')).toHaveCount(3);
  await look(page, 'readiness-booking');
  await page.goto('/account/');
  await hydrated(page);
  const toDo = account(page, 'Overview').getByRole('list', { name: 'Still to do before your training' });
  await expect(toDo.getByRole('listitem')).toHaveCount(3);
  await expect(toDo.getByRole('listitem').first()).toContainText('Due by');
  await look(page, 'readiness-overview');

  // The medical form, with an answer that asks for a call; the consultation form; the document.
  await page.setViewportSize({ width: 1366, height: 900 });
  await toDo.getByRole('link', { name: 'Medical form: Chemical Peels Course' }).click();
  const medical = page.getByRole('form', { name: /^Medical form: / });
  await medical.getByLabel(/medical condition/).selectOption('No');
  await medical.getByLabel(/allergies/).selectOption('Yes');
  await medical.getByLabel(/pregnant/).selectOption('No');
  await medical.getByLabel(/Emergency contact/).fill('Tom Hartley 07700 900321');
  await medical.getByRole('button', { name: 'Submit form' }).click();
  await expect(page.getByText(/is complete\.$/)).toBeVisible();
  await page.goto('/account/forms/');
  await hydrated(page);
  await account(page, 'Forms').getByRole('link', { name: /^Consultation form: / }).click();
  const consultation = page.getByRole('form', { name: /^Consultation form: / });
  await consultation.getByLabel(/Your experience/).fill('Two years as a beauty therapist.');
  await consultation.getByLabel(/highest beauty or medical qualification/).fill('NVQ Level 3 in Beauty Therapy');
  await consultation.getByLabel(/What you want/).fill('To offer peels in my salon.');
  await consultation.getByRole('button', { name: 'Submit form' }).click();
  await expect(page.getByText(/is complete\.$/)).toBeVisible();
  await sendDocument(page);

  // The owner opens the student's forms and document from the roster and turns the document down.
  const office = await colleague(browser, baseURL);
  await setUp(office, addOwner(`owner-readiness-${Date.now()}@college.test`, 'Rita Review'));
  await office.goto(`/admin/sessions/${sessionId}/roster/`);
  const open = office.locator(`a[href="/admin/sessions/${sessionId}/roster/${orderId}/"]`);
  await expect(office.getByRole('cell').filter({ has: open })).toContainText('Call first');
  await open.click();
  await expect(office.getByRole('heading', { level: 1, name: 'Before training: Priya Shah' })).toBeVisible();
  await expect(office.getByText('Call before training:')).toBeVisible();
  await expect(office.getByText('Tom Hartley 07700 900321')).toBeVisible();
  const card = office.getByRole('region', { name: DOCUMENT });
  await expect(card.getByText('Sent: waiting for review')).toBeVisible();
  const file = await office.request.get((await card.getByRole('link', { name: 'certificate.pdf' }).getAttribute('href'))!);
  expect(await file.body()).toEqual(PDF);
  await card.getByRole('button', { name: `Turn down ${DOCUMENT}` }).click();
  await expect(card.getByRole('alert')).toHaveText('Say why, so the student knows what to send instead.');
  await card.getByLabel(/^Reason, if you turn it down/).fill(REASON);
  await card.getByRole('button', { name: `Turn down ${DOCUMENT}` }).click();
  await expect(card.getByText('Turned down: waiting for another file')).toBeVisible();
  await look(office, 'readiness-review');
  expect(query(`select count(*) from audit_log where action in ('readiness.open', 'readiness.open_file') and entity_id = '${orderId}'`))
    .toEqual([[3]]);

  // The student reads the reason in her mail and on the documents page, and sends another file.
  const mail = await mailTo(request, email, `Please send another file for “${DOCUMENT}”`);
  const reader = await colleague(browser, baseURL);
  await lookAt(reader, mail, 'document-turned-down');
  await expect(reader.getByText(REASON)).toBeVisible();
  await page.goto('/account/documents/');
  await hydrated(page);
  await expect(account(page, 'Documents').getByText(`We could not accept your last file: ${REASON}`)).toBeVisible();
  await look(page, 'readiness-documents-turned-down');
  await sendDocument(page);

  await office.reload();
  await card.getByRole('button', { name: `Accept ${DOCUMENT}` }).click();
  await expect(card.getByText('Accepted', { exact: true })).toBeVisible();

  // The balance paid, the roster says ready.
  await page.goto('/account/bookings/');
  await hydrated(page);
  await account(page, 'Bookings').getByRole('button', { name: /^Pay £/ }).click();
  await page.waitForURL(/\/pay-balance\/\?token=[0-9a-f]+$/);
  await hydrated(page);
  const [[owed]] = query(`select total - 10000 from enrollment where id = '${orderId}'`) as [[number]];
  await page.getByLabel('Amount to pay now (£)').fill((owed / 100).toFixed(2));
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const pay = page.getByRole('form', { name: 'Pay your balance' });
  await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await pay.getByLabel('Security code').fill('123');
  await pay.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible({ timeout: 15_000 });
  await office.goto(`/admin/sessions/${sessionId}/roster/`);
  await expect(office.getByRole('cell').filter({ has: open })).toHaveText(/^Ready/);
  await look(office, 'readiness-roster');

  // A tutor who does not teach this date is refused the answers, on the server.
  await office.goto('/admin/staff/');
  const tutorEmail = `tutor-readiness-${Date.now()}@college.test`;
  await office.getByLabel('Email').fill(tutorEmail);
  await office.getByLabel('Name').fill('Tara Elsewhere');
  await office.getByLabel('Role').selectOption({ label: 'Tutor' });
  await office.getByRole('button', { name: 'Add', exact: true }).click();
  const tutor = await colleague(browser, baseURL);
  await setUp(tutor, await mailedLink(request, tutorEmail, '/admin/setup/'));
  const refused = await tutor.request.get(`/api/admin/sessions/${sessionId}/readiness/${orderId}`);
  expect(refused.status()).toBe(403);
  await tutor.goto(`/admin/sessions/${sessionId}/roster/${orderId}/`);
  await expect(tutor.getByText('You do not have access to this.')).toBeVisible();
  await expect(tutor.getByText('Tom Hartley')).toHaveCount(0);
});

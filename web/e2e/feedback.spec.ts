import { mkdirSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { checkoutWith, freshEmail, payBookingFee } from './accounts';
import { chooseDate, dateChoices, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, mailedLink, query, test } from './fixtures';
import { lookAt, mailTo } from './mailbox';
import { addOwner, setUp } from './staff';

// Feedback after the day (decision 034): staff mark attendance on a date
// held today; each student gets one mail whose link rates the day; a low
// rating reaches the inbox; staff publish a comment the student agreed to
// share, and the course page shows it with its rating in the structured data.

const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });

/** Both widths of `page` as it is now, looked at for axe and reflow. */
async function shoot(page: Page, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/feedback-${name}-${width}.png`, fullPage: true });
  }
}

/** A student in a browser of their own books `course` on `sessionId` and pays the booking fee. */
async function book(browser: Browser, baseURL: string | undefined, course: string, sessionId: string, first: string, email: string) {
  const page = await (await browser.newContext({ baseURL })).newPage();
  const checkout = await checkoutWith(page, course);
  if ((await dateChoices(checkout).count()) > 0) await chooseDate(checkout, sessionId);
  await checkout.getByLabel('First name').fill(first);
  await checkout.getByLabel('Last name').fill('Feedback');
  await checkout.getByLabel('Email').fill(email);
  await checkout.getByLabel('Phone number').fill('07700 900321');
  await payBookingFee(page, checkout);
  await page.close();
}

test('a student rates the day from the mailed link once; a low rating reaches the inbox; a consented comment is published', async ({ page, browser, baseURL, request }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  await setUp(page, addOwner(`owner-fb-${stamp}@college.test`, 'Olivia Owner'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // A date held today.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const venue = `Studio FB ${stamp}`;
  await page.goto('/admin/sessions/new/');
  await page.getByLabel('Course').selectOption({ label: 'Chemical Peels Course' });
  await page.getByLabel('Date').fill(today);
  await page.getByLabel('Start time').fill('23:00');
  await page.getByLabel('End time').fill('23:30');
  await page.getByRole('radio', { name: 'On site' }).check();
  await page.getByLabel('Price (£)').fill('650');
  // Two seats, both booked here: the date is full at once, so no other test's booking takes it.
  await page.getByLabel('Seats').fill('2');
  await page.getByLabel('Venue').fill(venue);
  await page.getByRole('button', { name: 'Create the session' }).click();
  await expect(page.getByText('Session created.')).toBeVisible();
  const [[sessionId, course]] = query(
    `select s.id, c.url from session s join event e on e.id = s.event_id join course c on c.id = e.course_id where s.venue = '${venue}'`,
  ) as [[string, string]];

  const ana = { first: `Ana${stamp}`, email: freshEmail() };
  const ben = { first: `Ben${stamp}`, email: freshEmail() };
  for (const student of [ana, ben]) await book(browser, baseURL, course, sessionId, student.first, student.email);

  // Staff tick both as come: one mail each.
  await page.goto(`/admin/sessions/${sessionId}/roster/`);
  for (const student of [ana, ben]) {
    const box = page.getByRole('checkbox', { name: `${student.first} Feedback attended` });
    await box.check();
    await expect(box).toBeChecked();
    await expect(box).toBeEnabled();
  }
  const anaMail = await mailTo(request, ana.email, 'How was your Chemical Peels Course training?');
  await lookAt(page, anaMail, 'feedback');
  const anaLink = await mailedLink(request, ana.email, '/feedback/');
  const benLink = await mailedLink(request, ben.email, '/feedback/');

  // Ana rates it 5 and agrees to share her comment.
  const student = await (await browser.newContext({ baseURL })).newPage();
  await student.goto(anaLink);
  await hydrated(student);
  await student.getByRole('button', { name: 'Reject all' }).click();
  await expect(student.getByRole('heading', { level: 1, name: 'How was your training?' })).toBeVisible();
  await shoot(student, 'form');
  await student.getByRole('radio', { name: '5 – Excellent' }).check();
  await student.getByLabel('Your comment (optional)').fill('Clear, friendly teaching and plenty of practice.');
  await student.getByRole('checkbox', { name: /may publish my comment/ }).check();
  await student.getByRole('button', { name: 'Send feedback' }).click();
  await expect(student.getByRole('heading', { level: 1, name: 'Thank you for your feedback' })).toBeVisible();
  await shoot(student, 'thanks');
  // The link records once.
  await student.goto(anaLink);
  await hydrated(student);
  await expect(student.getByText('You have sent your feedback for this day already: it is given once.')).toBeVisible();

  // Ben rates it 2 without consent: it reaches the inbox.
  await student.goto(benLink);
  await hydrated(student);
  await student.getByRole('radio', { name: '2 – Fair' }).check();
  await student.getByLabel('Your comment (optional)').fill('Too rushed for me.');
  await student.getByRole('button', { name: 'Send feedback' }).click();
  await expect(student.getByRole('heading', { level: 1, name: 'Thank you for your feedback' })).toBeVisible();

  await page.goto('/admin/enquiries/?kind=feedback');
  await expect(page.getByText(`${ben.first} Feedback`).first()).toBeVisible();
  // The list shows the message's start; the whole of it is in the item.
  await expect(page.getByText(/Rated 2 of 5 after training/).first()).toBeAttached();
  await expect(page.getByLabel(/^Kind/)).toHaveValue('feedback');
  await shoot(page, 'inbox');

  // Staff publish Ana's comment; Ben's cannot be.
  await page.getByRole('navigation').getByRole('link', { name: 'Feedback' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback' })).toBeVisible();
  const benRow = page.getByRole('row').filter({ hasText: `${ben.first} Feedback` });
  await expect(benRow.getByText('Not agreed')).toBeVisible();
  await page.getByRole('button', { name: `Publish ${ana.first} Feedback’s comment` }).click();
  await expect(page.getByRole('button', { name: `Withdraw ${ana.first} Feedback’s comment` })).toBeVisible();
  await shoot(page, 'back-office');

  // The course page shows it, and rates the course from published reviews only.
  await student.goto(course);
  await hydrated(student);
  const reviews = student.getByRole('region', { name: 'What students say' });
  await expect(reviews.getByText('Clear, friendly teaching and plenty of practice.')).toBeVisible();
  await expect(student.getByText('Too rushed for me.')).toHaveCount(0);
  const graph = JSON.parse((await student.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as { '@graph': Record<string, unknown>[] };
  const courseNode = graph['@graph'].find((node) => node['@type'] === 'Course') as { aggregateRating: { ratingValue: number; reviewCount: number } };
  const published = query(
    `select count(*), avg(f.rating) from event_feedback f join session s on s.id = f.session_id join event e on e.id = s.event_id join course c on c.id = e.course_id where c.url = '${course}' and f.published_at is not null`,
  ) as [[number, number]];
  expect(courseNode.aggregateRating.reviewCount).toBe(published[0][0]);
  expect(courseNode.aggregateRating.ratingValue).toBeCloseTo(published[0][1], 1);
  await reviews.scrollIntoViewIfNeeded();
  await shoot(student, 'course-page');
});

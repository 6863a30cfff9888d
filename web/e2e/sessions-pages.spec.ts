import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures';
import { addOwner, setUp } from './staff';

// The sessions list a page at a time against the real server (issue 31): a
// college's years of dates are read 100 to a page, "Later sessions" goes on
// after the last one shown and the calendar steps a month at a time. The
// screen passes axe and fits a phone; screenshots go to E2E_SHOTS when it
// is set.

const SHOTS = process.env.E2E_SHOTS;
const COURSE = 'chemical-peels';

/** `YYYY-MM-DD` of the day `days` from now. */
const daysOn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('staff page through a long list of sessions and step the calendar by month', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  await setUp(page, addOwner(`sessions-${stamp}@college.test`, 'Sam Sessions'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // 101 dates of one course on the days after the 700th from now, all at 10:00:
  // the list's second page holds the last.
  const first = daysOn(700);
  for (let n = 0; n < 101; n++) {
    const opened = await page.request.post('/api/admin/sessions', {
      data: {
        courseId: COURSE,
        date: daysOn(700 + Math.floor(n / 3)),
        startTime: '10:00',
        endTime: '15:00',
        type: 'onsite',
        price: 65_000,
        seats: 6,
        venue: 'Studio 3',
        joiningLink: null,
        tutorId: null,
      },
    });
    expect(opened.status()).toBe(201);
  }

  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Sessions' }).click();
  await page.getByLabel('From').fill(first);
  await page.getByRole('button', { name: 'Show sessions' }).click();
  const table = page.getByRole('table', { name: 'Sessions' });
  await expect(page.getByText('100 sessions', { exact: true })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(101);
  const pages = page.getByRole('navigation', { name: 'Pages of sessions' });
  await expect(pages.getByRole('link', { name: 'First sessions' })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await pages.getByRole('link', { name: 'Later sessions' }).click();
  await expect(page.getByText('1 session', { exact: true })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(pages.getByRole('link', { name: 'Later sessions' })).toHaveCount(0);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/sessions-pages-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  await pages.getByRole('link', { name: 'First sessions' }).click();
  await expect(table.getByRole('row')).toHaveCount(101);

  // The calendar of the month of the first date, and the next month's.
  await page.getByRole('link', { name: 'Calendar' }).click();
  const month = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric' });
  await expect(page.getByRole('heading', { level: 2, name: month(first) })).toBeVisible();
  await page.getByRole('navigation', { name: 'Months' }).getByRole('link', { name: 'Next month' }).click();
  const [year, monthNumber] = first.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(year, monthNumber, 1)).toISOString().slice(0, 10);
  await expect(page.getByLabel('From')).toHaveValue(next);
  await expect(page.getByRole('heading', { level: 2, name: month(next) })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: month(first) })).toHaveCount(0);
  await expectNoAxeViolations(page);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/sessions-calendar-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoSidewaysScroll(page);
});

import type { Page } from '@playwright/test';
import { checkoutWith } from './accounts';
import { agreeToAll, chooseDate, expect, expectNoAxeViolations, expectNoSidewaysScroll, gbp, hydrated, pageData, test } from './fixtures';

// What a buyer is told is what happens (decisions 019 and 020): every course
// shows what its dates charge, as the checkout quotes them; a balance is
// never due on a day already past; neither checkout takes money before the
// terms, each course's entry requirements and, online, the request to start
// at once are agreed.

const MICRONEEDLING = '/courses/aesthetics/microneedling/';
const SHOTS = process.env.E2E_SHOTS;

interface CoursePage {
  id: string;
  title: string;
  online: boolean;
  pricing: { unit_amount: number };
  priceFrom: boolean;
  sessions: { id: string; price: number; date: string }[];
  fullSessions: { price: number }[];
}

/** What the checkout charges for `courseId` on `sessionId`. */
async function quoted(page: Page, courseId: string, sessionId: string | null): Promise<number> {
  const answer = await page.request.post('/api/checkout/basket', { data: { courses: [{ courseId, sessionId, includeKit: false }] } });
  const { lines } = (await answer.json()) as { lines: { price: number; sessionId: string | null }[] };
  expect(lines[0]!.sessionId).toBe(sessionId);
  return lines[0]!.price;
}

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('every course page shows the price its dates are charged at checkout', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/courses/');
  await hydrated(page);
  const { page: index } = await pageData<{ page: { courses: { url: string }[] } }>(page);
  expect(index.courses.length).toBeGreaterThanOrEqual(30);
  for (const { url } of index.courses) {
    await page.goto(url);
    const { page: course } = await pageData<{ page: CoursePage }>(page);
    // The price as read out, less the "Now" said only to screen readers after a was-price.
    const shown = (await page.locator('.course-buy .now-price').textContent())!.trim().replace(/^Now /, '');
    let expected: string;
    if (course.online) {
      expected = gbp(course.pricing.unit_amount);
    } else if (course.sessions.length > 0) {
      const charged = await Promise.all(course.sessions.map((s) => quoted(page, course.id, s.id)));
      const low = Math.min(...charged);
      expected = `${low === Math.max(...charged) ? '' : 'From '}${gbp(low)}`;
    } else if (course.fullSessions.length > 0) {
      const prices = course.fullSessions.map((s) => s.price);
      expected = `${Math.min(...prices) === Math.max(...prices) ? '' : 'From '}${gbp(Math.min(...prices))}`;
    } else {
      expected = gbp(await quoted(page, course.id, null));
    }
    expect(shown, `${url} shows what its dates charge`).toBe(expected);
  }
});

for (const width of [390, 1366]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
    });

    test('a course whose dates differ shows "From" its lowest price on its page, its card and in search', async ({ page }) => {
      await page.goto(MICRONEEDLING);
      await hydrated(page);
      const { page: course } = await pageData<{ page: CoursePage }>(page);
      const low = gbp(Math.min(...course.sessions.map((s) => s.price)));
      await expect(page.locator('.course-buy .now-price')).toHaveText(`Now From ${low}`);
      await expect(page.getByRole('heading', { name: 'Entry requirements' })).toBeVisible();
      await expectNoAxeViolations(page);
      await shoot(page, `course-from-price-${width}`);

      await page.goto('/courses/aesthetics/');
      await hydrated(page);
      const card = page.getByRole('article').filter({ has: page.getByRole('link', { name: course.title }) });
      await expect(card.locator('.now-price')).toContainText(`From ${low}`);

      await page.getByRole('button', { name: 'Search courses and articles' }).click();
      const search = page.getByRole('dialog');
      await search.getByRole('searchbox').fill('microneedling');
      const hit = search.getByRole('link', { name: new RegExp(course.title) }).first();
      await expect(hit).toContainText(`From ${low}`);
      await expectNoAxeViolations(page);
    });

    test('a course whose entry requirements an online course meets names it, linked, beside them', async ({ page }) => {
      await page.goto('/courses/injectables/foundation-anti-wrinkle/');
      await hydrated(page);
      const entry = page.getByRole('region', { name: 'Entry requirements' });
      await expect(entry.getByText('we see its certificate on your account, so you need not send proof of it')).toBeVisible();
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await entry.screenshot({ path: `/tmp/shots/entry-met-online-${width}.png` });
      await entry.getByRole('link', { name: 'Level 3 Anatomy and Physiology for Aesthetics Online' }).click();
      await expect(page).toHaveURL('/courses/elearning/anatomy-and-physiology-online/');
      await expect(page.getByRole('heading', { level: 1, name: 'Level 3 Anatomy and Physiology for Aesthetics Online' })).toBeVisible();
    });

    test('a balance is due by a day still to come, or today when training is within 14 days', async ({ page }) => {
      // A course with a date with a free seat within 14 days, and one later.
      const { now, page: index } = (await (await page.request.get('/api/page-data?path=/courses/')).json()) as {
        now: string;
        page: { courses: { url: string; online: boolean }[] };
      };
      const soonUntil = new Date(Date.parse(now.slice(0, 10)) + 14 * 86_400_000).toISOString().slice(0, 10);
      let found: { url: string; soon: string; later: string } | null = null;
      for (const { url, online } of index.courses) {
        if (online) continue;
        const { page: course } = (await (await page.request.get(`/api/page-data?path=${encodeURIComponent(url)}`)).json()) as { page: CoursePage };
        const soon = course.sessions.find((s) => s.date < soonUntil);
        const later = course.sessions.find((s) => s.date > soonUntil);
        if (soon && later) {
          found = { url, soon: soon.id, later: later.id };
          break;
        }
      }
      expect(found, 'the demo college has a course with a date within 14 days and one later').not.toBeNull();
      await checkoutWith(page, found!.url);
      const courses = page.getByRole('region', { name: 'Your selected courses' });
      const balance = page.locator('.checkout-totals > div').filter({ has: page.getByText('Balance', { exact: true }) }).getByRole('definition');

      await chooseDate(courses, found!.soon);
      await expect(balance).toContainText('due today, as your training starts within 14 days');
      await expect(balance).not.toContainText('due by');
      await shoot(page, `checkout-due-today-${width}`);

      await chooseDate(courses, found!.later);
      await expect(balance).toContainText(/due by \w+day \d+\w\w \w+/);
      await expectNoAxeViolations(page);
    });

    test('the checkout takes no money before the terms and each entry requirement are agreed', async ({ page }) => {
      const form = await checkoutWith(page, MICRONEEDLING);
      await form.getByLabel('First name').fill('Tara');
      await form.getByLabel('Last name').fill('Terms');
      await form.getByLabel('Email').fill(`terms-${width}@example.com`);
      await form.getByLabel('Phone number').fill('07700 900123');
      await form.getByLabel('Card number').fill('4242 4242 4242 4242');
      await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await form.getByLabel('Security code').fill('123');
      await form.getByRole('button', { name: /^Pay booking fee/ }).click();

      const entry = form.getByRole('checkbox', { name: /^I meet the entry requirements of Microneedling/ });
      await expect(entry).toBeFocused();
      await expect(entry).toBeInViewport();
      await expect(form.getByText('Please accept the terms and conditions to continue')).toBeVisible();
      await expect(page).toHaveURL('/checkout/');
      await expectNoAxeViolations(page);
      await shoot(page, `checkout-terms-refused-${width}`);

      await agreeToAll(form);
      await form.getByRole('button', { name: /^Pay booking fee/ }).click();
      await page.waitForURL(/\/enrolment\/[0-9a-f-]+/);
      await expect(page.getByRole('heading', { level: 1, name: "You're enrolled" })).toBeVisible({ timeout: 15_000 });
    });

    test('an online course is bought only with the request to start at once and the terms', async ({ page }) => {
      await page.goto('/courses/elearning/');
      await hydrated(page);
      const { page: section } = await pageData<{ page: { courses: { url: string }[] } }>(page);
      await page.goto(section.courses[0]!.url);
      await hydrated(page);
      await page.getByRole('button', { name: 'Add to basket', exact: true }).click();
      await page.getByRole('button', { name: 'View basket' }).click();
      const drawer = page.getByRole('dialog', { name: 'Order Summary' });
      await drawer.getByRole('button', { name: 'Book Now' }).click();
      const startNow = drawer.getByRole('checkbox', { name: /^I want access to my online course straight away/ });
      await expect(startNow).toBeFocused();
      await expect(drawer.getByText('Please confirm you want access straight away to continue')).toBeVisible();
      await expectNoAxeViolations(page);
      await shoot(page, `drawer-terms-refused-${width}`);
      await agreeToAll(drawer);
      await drawer.getByRole('button', { name: 'Book Now' }).click();
      await page.waitForURL(/\/sandbox\/checkout\//);
    });
  });
}

import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { load } from 'js-yaml';
import { signIn } from './accounts';
import { agreeToAll, allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, mailedLink, test } from './fixtures';
import { lookAt, mailTo } from './mailbox';

// An online course from the first visit to its certificate (decision 025),
// as a visitor without an account: the anatomy course and the dermaplaning
// course with its microneedling add-on bought with the sandbox card, the
// order's mailed link followed to choose a password, lessons studied, the
// final assessment failed then passed, the place kept across browsers,
// and the certificate checked by anyone. The order is paid on one
// instance and the course studied on another, on one PostgreSQL database
// as behind a load balancer (playwright.config.ts starts them; without
// PostgreSQL both addresses are the SQLite instance's and the title says
// so).

const SHOP_URL = process.env.E2E_EDITOR_URL!;
const STUDY_URL = process.env.E2E_LIVE_URL!;
const OTHER = process.env.E2E_CONTENT_DATABASE ? 'another instance' : 'the same instance (SKIPPING the other: no PostgreSQL)';
const COURSE_ID = 'anatomy-and-physiology-online';
const COURSE = { title: 'Level 3 Anatomy and Physiology for Aesthetics Online', url: `/courses/elearning/${COURSE_ID}/` };
const PLAYER = `/learn/${COURSE_ID}/`;
const NAME = { first: 'Grace', last: 'Okafor' };
const PASSWORD = 'a long study pass phrase';

interface Curriculum {
  modules: { lessons: { slug: string; title: string }[] }[];
  assessment: { slug: string; questions: { prompt: string; choices: { text: string; correct?: boolean }[] }[] };
}

/** The course's curriculum as the content pack keeps it: the right answers come from here, never from the page. */
const curriculum = load(readFileSync(new URL(`../../content/learning/${COURSE_ID}.yaml`, import.meta.url), 'utf8')) as Curriculum;
const lessons = curriculum.modules.flatMap((module) => module.lessons);

// The buyer's browser shops on the first instance, and its requests (the mailbox too) go there.
test.use({ baseURL: SHOP_URL });

async function addToBasket(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await expect(page.getByRole('button', { name: 'In your basket' })).toBeDisabled();
}

/** Answers every question of the assessment on the page: right, or each with a wrong choice. */
async function answerAssessment(page: Page, right: boolean) {
  for (const question of curriculum.assessment.questions) {
    const group = page.getByRole('group', { name: question.prompt });
    const chosen = question.choices.filter((choice) => Boolean(choice.correct) === right);
    for (const choice of right ? chosen : chosen.slice(0, 1)) await group.getByLabel(choice.text, { exact: true }).check();
  }
  await page.getByRole('button', { name: 'Submit answers' }).click();
}

async function signInElsewhere(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: SHOP_URL });
  const page = await context.newPage();
  await page.goto('/sign-in/?next=/account/online-courses/');
  await hydrated(page);
  // A new browser has not yet answered the cookie question.
  await page.getByRole('button', { name: 'Reject all' }).click();
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL('/account/online-courses/');
  return page;
}

test(`a visitor buys online courses, starts from the mailed link on ${OTHER}, and completes the course for a certificate anyone can check`, async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = `learner-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await addToBasket(page, COURSE.url);
  await addToBasket(page, '/courses/elearning/dermaplaning-online/');
  await page.getByRole('button', { name: /^Basket/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Order Summary' });
  await drawer.getByRole('button', { name: /Add for £39\.99/ }).click();
  await agreeToAll(drawer);
  await drawer.getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name on card').fill(`${NAME.first} ${NAME.last}`);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await page.waitForURL(/\/e-learning\/order\/[0-9a-f-]+\/$/);
  await hydrated(page);
  await expect(page.getByText(`Start your course from the link we have emailed to ${email}`)).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/online-order-guest-1366.png', fullPage: true });

  // The order's mail, as a mail client shows it: the start link is its button, and nothing is "emailed separately".
  const orderMail = await mailTo(page.request, email, 'Your Calderbrook Academy order', STUDY_URL);
  await page.goto(orderMail);
  await expect(page.getByRole('link', { name: 'Start your course' })).toHaveAttribute('href', /\/start-course\/\?token=/);
  await expect(page.getByText(/separately/)).toHaveCount(0);
  await lookAt(page, orderMail, 'online-order-start-link');

  // The mailed link, opened on the other instance: it names the course and address, and asks the names and a password.
  await page.goto(`${STUDY_URL}${await mailedLink(page.request, email, '/start-course/')}`);
  await hydrated(page);
  await expect(page.getByText(`Your place on ${COURSE.title} is ready`)).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue(NAME.first);
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: '/tmp/shots/start-course-1366.png', fullPage: true });
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Start my course' }).click();
  await expect(page).toHaveURL(`${STUDY_URL}${PLAYER}`);
  await expect(page.getByRole('heading', { level: 1, name: COURSE.title })).toBeVisible();

  // Two lessons studied, and a third opened: where the student is.
  for (const lesson of lessons.slice(0, 2)) {
    await page.goto(`${STUDY_URL}${PLAYER}${lesson.slug}/`);
    await hydrated(page);
    await page.getByRole('button', { name: 'Mark as complete' }).click();
    await expect(page.locator('.lesson-done')).toBeFocused();
  }
  const third = lessons[2]!;
  const visited = page.waitForResponse((response) => response.url().endsWith(`/lessons/${third.slug}/visit`));
  await page.goto(`${STUDY_URL}${PLAYER}${third.slug}/`);
  expect((await visited).status()).toBe(200);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: third.title })).toBeVisible();

  // Signed out here; signed in on a new browser, "Continue" opens that lesson, and the add-on course is there too.
  await page.getByRole('banner').getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Your account' })).toHaveAttribute('href', '/sign-in/');
  const laptop = await signInElsewhere(browser, email);
  const courses = laptop.getByRole('region', { name: 'Online courses' });
  await expect(courses.getByRole('heading', { name: 'Microneedling Online Course' })).toBeVisible();
  await expect(courses.getByRole('heading', { name: 'Dermaplaning Online Course' })).toBeVisible();
  await courses.getByRole('link', { name: /^Continue/ }).click();
  await expect(laptop).toHaveURL(PLAYER);
  await hydrated(laptop);
  await laptop.getByRole('link', { name: 'Continue' }).click();
  await expect(laptop.getByRole('heading', { level: 1, name: third.title })).toBeVisible();

  // The other lessons done from the laptop, then the final assessment failed and passed.
  for (const lesson of lessons.slice(2)) {
    const done = await laptop.request.post(`/api/learn/${COURSE_ID}/lessons/${lesson.slug}/done`, { data: {} });
    expect(done.status()).toBe(200);
  }
  await laptop.goto(`${PLAYER}${curriculum.assessment.slug}/`);
  await hydrated(laptop);
  await answerAssessment(laptop, false);
  await expect(laptop.getByRole('heading', { level: 2, name: 'You did not pass this time' })).toBeFocused();
  await expect(laptop.getByRole('region', { name: 'You did not pass this time' }).getByText('You have 2 attempts left.')).toBeVisible();
  await laptop.getByRole('button', { name: 'Try again' }).click();
  await answerAssessment(laptop, true);
  await expect(laptop.getByRole('heading', { level: 2, name: 'You passed' })).toBeFocused();
  await expect(laptop.getByText('You have completed this course. Well done!')).toBeVisible();
  const line = await laptop.getByText(/^Your certificate number is /).textContent();
  const number = /number is ([A-Z0-9-]+)\./.exec(line ?? '')?.[1];
  expect(number, line ?? '').toBeTruthy();
  await expectNoAxeViolations(laptop);
  await laptop.screenshot({ path: '/tmp/shots/course-completed-1366.png', fullPage: true });

  // Anyone checks it, signed out, on the other instance.
  const stranger = await browser.newContext();
  const check = await stranger.newPage();
  await check.goto(`${STUDY_URL}/certificates/${number}`);
  const confirmed = check.getByRole('main');
  await expect(confirmed.getByText(`${NAME.first} ${NAME.last}`)).toBeVisible();
  await expect(confirmed.getByText(COURSE.title)).toBeVisible();
  // The certificate's mail, as a mail client shows it.
  const certificateMail = await mailTo(check.request, email, `Your ${COURSE.title} certificate`, STUDY_URL);
  await check.goto(certificateMail);
  await expect(check.getByText(number!).first()).toBeVisible();
  await lookAt(check, certificateMail, 'online-certificate');
  await stranger.close();
  await laptop.context().close();
});

test('a start link used or expired says how else to get in, on a phone', async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/start-course/?token=not-a-live-link');
  await hydrated(page);
  await expect(page.getByRole('alert')).toContainText('This link has expired or was already used.');
  await expect(page.getByRole('link', { name: 'ask for a password link' })).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: '/tmp/shots/start-course-dead-390.png', fullPage: true });
  allowConsoleErrors(consoleErrors, /status of 422 .*\/api\/auth\/course-start\/check\)$/);
});

import type { Locator, Page } from '@playwright/test';
import { allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, query, test } from './fixtures';
import { PASSWORD, createAccount, freshEmail, signIn } from './accounts';
import { addOwner, setUp } from './staff';

// Lessons and quizzes written in the back office (decisions 018 and 025),
// at a phone's width and a laptop's: staff open an online course, add a
// lesson to a module and a question to its quiz, are told beside the field
// what is wrong (a slug used twice, two right answers to a single-choice
// question, a video's id the server refuses) without losing what they
// typed, save the draft, preview the new lesson and quiz in the course
// player as a student will see them (nothing recorded), publish, and a
// student given the course finds the new lesson. Each width has its own
// course, so no other browser test's course changes.

const SMALL_COURSE = {
  access_months: 12,
  modules: [
    {
      title: 'The skin',
      lessons: [{ slug: 'skin-layers', title: 'The layers of the skin', minutes: 10, body: '## Three layers\nEpidermis, dermis and hypodermis.', downloads: [] }],
      quiz: {
        slug: 'skin-quiz',
        title: 'The skin quiz',
        pass_mark: 50,
        questions: [
          { key: 'q1', prompt: 'Which layer is outermost?', kind: 'single', choices: [{ key: 'a', text: 'The epidermis', correct: true }, { key: 'b', text: 'The dermis', correct: false }] },
        ],
      },
    },
  ],
};

/** A new online course, published at once from the anatomy course's page with a small curriculum of its own: its id. */
async function newOnlineCourse(page: Page, width: number): Promise<string> {
  const key = `skin-basics-online-${width}-${Date.now().toString(36)}`;
  const anatomy = await page.request.get('/api/admin/content/course/anatomy-and-physiology-online');
  expect(anatomy.status()).toBe(200);
  const { published } = (await anatomy.json()) as { published: Record<string, unknown> };
  // Its own address and price; everything else as the anatomy course's.
  const { slug: _address, ...rest } = published;
  const body = { ...rest, title: `Skin Basics Online ${width}`, price_id: `price_${key.replaceAll('-', '_')}`, learning: SMALL_COURSE };
  const created = await page.request.post('/api/admin/content/course', { data: { key, body } });
  expect(created.status()).toBe(201);
  return key;
}

/** The fold (module, lesson, quiz, question) whose summary starts with `title`. */
const fold = (scope: Page | Locator, title: string) => {
  const page = 'page' in scope ? scope.page() : scope;
  return scope.locator('details', { has: page.locator(':scope > summary', { hasText: title }) }).first();
};

async function unfold(scope: Page | Locator, title: string): Promise<Locator> {
  const details = fold(scope, title);
  if ((await details.getAttribute('open')) === null) await details.locator(':scope > summary').click();
  await expect(details).toHaveAttribute('open', '');
  return details;
}

/** Reflow and axe, and a picture of the page (and of `part` of it, close up). */
async function checked(page: Page, name: string, part?: Locator) {
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `/tmp/shots/editor/${name}.png`, fullPage: true });
  await part?.screenshot({ path: `/tmp/shots/editor/${name}-part.png` });
}

for (const width of [390, 1366]) {
  test(`staff write a lesson and a question, preview them and publish them to a student (${width} px)`, async ({ page, browser, consoleErrors }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await setUp(page, addOwner(`owner-lessons-${width}-${Date.now()}@college.test`, 'Olive Owner'));
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const key = await newOnlineCourse(page, width);

    await page.goto(`/admin/content/course/${key}/`);
    await expect(page.getByRole('heading', { level: 1, name: `Edit course: Skin Basics Online ${width}` })).toBeVisible();
    const lessons = page.getByRole('region', { name: 'Lessons and quizzes' });
    await expect(fold(lessons, 'Module 1: The skin')).not.toHaveAttribute('open');
    await lessons.scrollIntoViewIfNeeded();
    await checked(page, `collapsed-${width}`, lessons);

    // A lesson added to the module: its slug follows its title, then is typed as another lesson's.
    const module = await unfold(lessons, 'Module 1: The skin');
    await module.getByRole('button', { name: 'Add a lesson' }).click();
    await expect(module.getByLabel(/^Title of the lesson/).last()).toBeFocused();
    await page.keyboard.type('Caring for the skin');
    const lesson = fold(module, 'Lesson 2: Caring for the skin');
    await expect(lesson.getByLabel(/^Slug/)).toHaveValue('caring-for-the-skin');
    await lesson.getByLabel(/^Minutes/).fill('8');
    await lesson.getByLabel(/^Text/).fill('## Every day\nCleanse, tone and protect.');
    await lesson.getByLabel(/^Slug/).fill('skin-layers');

    // A question added to the quiz, with both its choices ticked right.
    const quiz = await unfold(module, 'Quiz: The skin quiz');
    await quiz.getByRole('button', { name: 'Add a question' }).click();
    await page.keyboard.type('Which layer holds the collagen?');
    const question = fold(quiz, 'Question 2: Which layer holds the collagen?');
    await question.getByLabel(/^Choice 1/).fill('The dermis');
    await question.getByLabel(/^Choice 2/).fill('The epidermis');
    await question.getByRole('checkbox', { name: 'Right answer for choice 1' }).check();
    await question.getByRole('checkbox', { name: 'Right answer for choice 2' }).check();

    // The form's own checks, in the server's words, beside each field; nothing typed is lost.
    await page.getByRole('button', { name: 'Save draft' }).click();
    const summary = page.locator('.error-summary');
    await expect(summary).toBeFocused();
    await expect(summary.getByRole('link', { name: "Lessons and quizzes: Module 1, lesson 2, slug: 'skin-layers' is used twice." })).toBeVisible();
    await expect(lesson.getByLabel(/^Slug/)).toHaveAccessibleDescription(/'skin-layers' is used twice\./);
    const choices = question.getByRole('group', { name: 'Choices' });
    await expect(choices).toHaveAccessibleDescription('A single-choice question needs exactly one correct choice, not 2.');
    await expect(lesson.getByLabel(/^Text/)).toHaveValue('## Every day\nCleanse, tone and protect.');
    await summary.getByRole('link', { name: /choices: A single-choice question/ }).click();
    await expect(choices).toBeFocused();
    await checked(page, `errors-${width}`, module);

    // A video id the server refuses: its words, beside the video.
    await lesson.getByLabel(/^Slug/).fill('caring-for-the-skin');
    await question.getByRole('checkbox', { name: 'Right answer for choice 2' }).uncheck();
    await lesson.getByRole('radio', { name: 'YouTube' }).check();
    await lesson.getByLabel(/^YouTube video id/).fill('youtu.be/abc');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const video = lesson.getByRole('group', { name: 'Video' });
    await expect(video).toHaveAccessibleDescription("'youtu.be/abc' is not a video's id.");
    await expect(summary.getByRole('link', { name: "Lessons and quizzes: Module 1, lesson 2, video: 'youtu.be/abc' is not a video's id." })).toBeVisible();
    // The browser logs the refusal the page shows.
    allowConsoleErrors(consoleErrors, /status of 422 .*\/draft\)$/);
    await lesson.getByRole('radio', { name: 'None' }).check();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText(/^Draft saved, .*Publish it to make it live\.$/)).toBeVisible();
    await unfold(lessons, 'Module 1: The skin');
    await unfold(module, 'Lesson 2: Caring for the skin');
    await checked(page, `expanded-${width}`, lessons);
    if (width === 390) {
      // Reflow: the open lesson's fields fit a 320 px screen.
      await page.setViewportSize({ width: 320, height: 900 });
      await expectNoSidewaysScroll(page);
      await page.setViewportSize({ width, height: 900 });
    }

    // The draft's lessons in the course player, in the editor's frame.
    await page.getByRole('button', { name: 'Preview the lessons' }).click();
    const frame = page.frameLocator('iframe[title^="Preview of the lessons"]');
    // The frame's links open through the editor once its scripts run: each page waited for.
    const frameHydrated = () => expect(frame.locator('html[data-hydrated="true"]')).toHaveCount(1);
    await expect(frame.getByRole('note', { name: 'Preview' })).toContainText('Preview of the draft.');
    await frameHydrated();
    await frame.getByRole('link', { name: 'Caring for the skin' }).click();
    await expect(frame.getByRole('heading', { level: 1, name: 'Caring for the skin' })).toBeVisible();
    await frameHydrated();

    // Its quiz, marked in the sandboxed frame (through the editor around it) and not recorded.
    await frame.getByRole('link', { name: /Next.*The skin quiz/ }).click();
    await expect(frame.getByRole('heading', { level: 1, name: 'The skin quiz' })).toBeVisible();
    await frameHydrated();
    await frame.getByRole('group', { name: /Which layer is outermost\?/ }).getByRole('radio', { name: 'The epidermis' }).check();
    await frame.getByRole('group', { name: /Which layer holds the collagen\?/ }).getByRole('radio', { name: 'The dermis' }).check();
    await frame.getByRole('button', { name: 'Submit answers' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'You passed' })).toBeFocused();
    await page.locator('iframe[title^="Preview of the lessons"]').screenshot({ path: `/tmp/shots/editor/preview-quiz-${width}.png` });
    expect(query(`select count(*) from quiz_attempt where course_id = '${key}'`)[0]?.[0]).toBe(0);

    // The same preview on its own, at this width: sandboxed there too.
    const preview = `/api/admin/content/course/${key}/preview/learn/`;
    const answer = await page.goto(`${preview}caring-for-the-skin/`);
    expect(answer?.headers()['cache-control']).toBe('no-store');
    expect(answer?.headers()['content-security-policy']).toContain('sandbox allow-scripts allow-forms');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Caring for the skin' })).toBeVisible();
    await expect(page.getByRole('note', { name: 'Preview' })).toBeVisible();
    await expect(page.getByText('In a preview nothing is recorded.', { exact: false })).toBeVisible();
    await page.screenshot({ path: `/tmp/shots/editor/preview-lesson-${width}.png`, fullPage: true });

    // Published, a student given the course finds the new lesson.
    await page.goto(`/admin/content/course/${key}/`);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, publish it' }).click();
    await expect(page.getByText(/^Published as version \d+\.$/)).toBeVisible();
    const email = freshEmail();
    await createAccount(page.request, email);
    const granted = await page.request.post('/api/admin/online-registrations', { data: { email, courseId: key } });
    expect(granted.status()).toBe(201);

    const student = await browser.newPage();
    await student.setViewportSize({ width, height: 900 });
    // The staff-only preview is nothing to a student.
    expect((await student.request.get(`${preview}caring-for-the-skin/`)).status()).toBe(401);
    await student.goto(`/sign-in/?next=/learn/${key}/`);
    await hydrated(student);
    await signIn(student, email, PASSWORD);
    await expect(student).toHaveURL(`/learn/${key}/`);
    await student.getByRole('region', { name: 'Course contents' }).getByRole('link', { name: 'Caring for the skin' }).click();
    await expect(student.getByRole('heading', { level: 1, name: 'Caring for the skin' })).toBeVisible();
    await expect(student.getByText('Cleanse, tone and protect.')).toBeVisible();
    await expect(student.getByRole('note', { name: 'Preview' })).toHaveCount(0);
    await student.close();
  });
}

test('the demo course’s twenty lessons fold into six modules and the final assessment, each opened on its own', async ({ page }) => {
  await setUp(page, addOwner(`owner-demo-lessons-${Date.now()}@college.test`, 'Olive Owner'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.goto('/admin/content/course/anatomy-and-physiology-online/');
  const lessons = page.getByRole('region', { name: 'Lessons and quizzes' });
  await expect(lessons.locator('details')).toHaveCount(7);
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await lessons.scrollIntoViewIfNeeded();
    await checked(page, `demo-collapsed-${width}`, lessons);
  }
  const module = await unfold(lessons, 'Module 2: The skin and its appendages');
  // Its lessons are drawn as it unfolds: counted once they are there.
  const lessonItems = module.locator('.curriculum-lessons > ol > li');
  await expect(lessonItems.first()).toBeVisible();
  await expect(module.locator('details')).toHaveCount(await lessonItems.count() + 1);
  await checked(page, 'demo-module-open-1366', module);
});

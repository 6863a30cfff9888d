import { execFileSync } from 'node:child_process';
import type { Browser, FrameLocator, Page } from '@playwright/test';
import { allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, test } from './fixtures';
import { createAccount, PASSWORD, signIn } from './accounts';
import { addOwner, setUp } from './staff';

// A course taught by a SCORM package (decision 026), as the demo student of
// ENROL_DEMO_STUDENTS takes the demo college's infection prevention course:
// its package launches in a sandboxed frame, her answers are committed and
// resume in another browser, passing its quiz completes the course; another
// account and a signed-out browser get nothing of the package's files. Staff
// upload a package on the course's page, and a hostile one is refused; a
// SCORM 2004 package they upload and a course they give a student complete
// it the same way.

const AMELIA = { email: 'amelia@student.example', password: 'training day 2027' };
const COURSE = '/learn/infection-prevention-online/';
const TITLE = 'Infection Prevention and Control Online';
const FRAME = 'Infection Prevention and Control: your course';

async function signInAs(page: Page, email: string, password: string, next: string) {
  await page.goto(`/sign-in/?next=${next}`);
  await hydrated(page);
  await signIn(page, email, password);
  await expect(page).toHaveURL(next);
}

/** The course page, hydrated, and the package's frame. */
async function openCourse(page: Page): Promise<FrameLocator> {
  await page.goto(COURSE);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  return page.frameLocator(`iframe[title="${FRAME}"]`);
}

/** Waits for the commit the package sends on next. */
const nextCommit = (page: Page) => page.waitForResponse((r) => r.url().endsWith('/package/commit') && r.request().method() === 'POST');

async function newStudentPage(browser: Browser, email: string, password: string, next: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, email, password, next);
  return { context, page };
}

/** A zip of `files` (name → text), made by Python's zipfile. */
function zipOf(files: Record<string, string>): Buffer {
  const script = 'import io, json, sys, zipfile\nb = io.BytesIO()\nz = zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED)\n' +
    'for name, text in json.loads(sys.argv[1]).items(): z.writestr(name, text)\nz.close()\nsys.stdout.buffer.write(b.getvalue())';
  return execFileSync('python3', ['-c', script, JSON.stringify(files)]);
}

test.describe.configure({ mode: 'serial' });

test('the package launches in its frame, saves as she goes, resumes in another browser and completes the course', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAs(page, AMELIA.email, AMELIA.password, '/account/online-courses/');
  const listed = page.getByRole('region', { name: 'Online courses' }).getByRole('listitem').filter({ hasText: TITLE });
  await listed.getByRole('link', { name: /^(Start|Continue)/ }).click();
  await expect(page).toHaveURL(COURSE);
  await hydrated(page);
  const frame = page.frameLocator(`iframe[title="${FRAME}"]`);
  const iframe = page.locator(`iframe[title="${FRAME}"]`);
  await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts allow-forms');
  await expect(frame.getByRole('heading', { level: 1, name: '1. How infections spread' })).toBeVisible();

  const saved = nextCommit(page);
  await frame.getByRole('button', { name: 'Next' }).click();
  await expect(frame.getByRole('heading', { level: 1, name: '2. Hand hygiene and protective equipment' })).toBeVisible();
  expect((await saved).status()).toBe(200);
  await expect(page.getByRole('progressbar', { name: 'Your progress' })).toHaveAttribute('aria-valuenow', '50');
  // The frame is reached by keyboard from the page.
  await iframe.focus();
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: '/tmp/shots/scorm-player-1366.png', fullPage: true });

  // Another browser, signed in afresh, resumes where she was.
  const other = await newStudentPage(browser, AMELIA.email, AMELIA.password, COURSE);
  const resumed = other.page.frameLocator(`iframe[title="${FRAME}"]`);
  await expect(resumed.getByRole('heading', { level: 1, name: '2. Hand hygiene and protective equipment' })).toBeVisible();
  await expect(other.page.getByText('Your course opens where you left off.')).toBeVisible();
  await resumed.getByRole('button', { name: 'Next' }).click();
  await resumed.getByRole('button', { name: 'Next' }).click();
  await expect(resumed.getByRole('heading', { level: 1, name: 'Assessment' })).toBeVisible();
  for (const answer of ['Cleaning your hands after touching a client', 'When hands are visibly soiled', 'Cleaning', 'Put it straight into a sharps bin']) {
    await resumed.getByLabel(answer, { exact: true }).check();
  }
  const passed = nextCommit(other.page);
  await resumed.getByRole('button', { name: 'Submit answers' }).click();
  await expect(resumed.getByRole('heading', { level: 2, name: 'You passed: 100%' })).toBeVisible();
  const answer = (await (await passed).json()) as { percent: number; complete: boolean; certificate: string };
  expect(answer).toMatchObject({ percent: 100, complete: true });
  await expect(other.page.getByText('You have completed this course. Well done!')).toBeVisible();
  await expect(other.page.getByRole('progressbar', { name: 'Your progress' })).toHaveAttribute('aria-valuenow', '100');
  // The course's certificate is issued, and anyone checks it by its number.
  await expect(other.page.getByText(`Your certificate number is ${answer.certificate}.`)).toBeVisible();
  await other.page.getByRole('link', { name: 'see its public page' }).click();
  await expect(other.page.getByText(answer.certificate).first()).toBeVisible();
  await other.context.close();

  await page.goto('/account/online-courses/');
  await hydrated(page);
  const done = page.getByRole('region', { name: 'Online courses' }).getByRole('listitem').filter({ hasText: TITLE });
  await expect(done.getByText('Completed', { exact: true })).toBeVisible();
  await expect(done.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
});

test('on a phone the package fills the width and the page reflows', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, AMELIA.email, AMELIA.password, COURSE);
  const frame = await openCourse(page);
  await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
  const box = await page.locator(`iframe[title="${FRAME}"]`).boundingBox();
  expect(box!.width).toBeGreaterThan(300);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: '/tmp/shots/scorm-player-390.png', fullPage: true });
});

test('another account and a signed-out browser get nothing of the package', async ({ page, browser, request }) => {
  await signInAs(page, AMELIA.email, AMELIA.password, COURSE);
  await openCourse(page);
  const src = await page.locator(`iframe[title="${FRAME}"]`).getAttribute('src');
  expect(src).toMatch(/^\/learn\/infection-prevention-online\/package\/[0-9a-f]+\/index\.html$/);
  const css = src!.replace('index.html', 'course.css');
  // Even her own browser does not open a package's page outside its frame.
  expect((await page.goto(src!))?.status()).toBe(404);

  const email = `scorm-other-${Date.now()}@example.com`;
  // Made apart from her browser, whose cookie stays hers.
  await createAccount(request, email);
  const ann = await newStudentPage(browser, email, PASSWORD, '/account/');
  expect((await ann.page.request.get(css)).status()).toBe(404);
  expect((await ann.page.goto(src!))?.status()).toBe(404);
  expect((await ann.page.goto(COURSE))?.status()).toBe(404);
  expect((await ann.page.request.post('/api/learn/infection-prevention-online/package/launch', { data: {} })).status()).toBe(404);
  await ann.context.close();

  const signedOut = await browser.newContext();
  const visitor = await signedOut.newPage();
  for (const path of [src!, css, COURSE]) expect((await visitor.goto(path))?.status()).toBe(404);
  await signedOut.close();

  // Once she signs out, the launch her frame used opens nothing, wherever it is asked from.
  expect((await page.request.post('/api/auth/sign-out', { data: {} })).status()).toBe(200);
  expect((await page.request.get(css)).status()).toBe(404);
});

test('staff upload a package on the course’s page, and a hostile one is refused with nothing kept', async ({ page, consoleErrors }) => {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 1366) {
      await setUp(page, addOwner(`scorm-${Date.now()}@college.test`, 'Robin Owner'));
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    }
    await page.goto('/admin/content/course/chemical-peels-online/');
    const section = page.getByRole('region', { name: 'SCORM package' });
    await expect(section.getByText(width === 1366 ? 'This course has no package: students study its lessons.' : 'Peels in practice (SCORM 1.2)')).toBeVisible();
    const manifest = '<manifest identifier="p" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"><metadata><schemaversion>1.2</schemaversion></metadata>' +
      '<organizations default="o"><organization identifier="o"><title>Peels in practice</title><item identifier="i" identifierref="r"/></organization></organizations>' +
      '<resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="index.html"/></resources></manifest>';
    const hostile = zipOf({ 'imsmanifest.xml': manifest, 'index.html': '<p>Peels</p>', '../../escape.html': 'x' });
    const field = section.getByLabel('SCORM package');
    await field.setInputFiles({ name: 'hostile.zip', mimeType: 'application/zip', buffer: hostile });
    await section.getByRole('button', { name: /(Upload|Replace) the package/ }).click();
    await expect(page.getByText(/is not a plain path inside the package/).first()).toBeVisible();
    allowConsoleErrors(consoleErrors, /status of 422 .*\/package\)$/);

    await field.setInputFiles({ name: 'peels.zip', mimeType: 'application/zip', buffer: zipOf({ 'imsmanifest.xml': manifest, 'index.html': '<p>Peels</p>' }) });
    await section.getByRole('button', { name: /(Upload|Replace) the package/ }).click();
    await expect(page.getByText('Uploaded Peels in practice: students now study it in the course player.')).toBeVisible();
    await expect(section.getByText('Peels in practice (SCORM 1.2)')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await section.screenshot({ path: `/tmp/shots/scorm-upload-${width}.png` });
  }
});

test('a SCORM 2004 package runs through API_1484_11: staff upload it and give a student the course, and its pass completes it', async ({ page, browser, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await setUp(page, addOwner(`scorm-2004-${Date.now()}@college.test`, 'Robin Owner'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const manifest = '<manifest identifier="d" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">' +
    '<metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>' +
    '<organizations default="o"><organization identifier="o"><title>Dermaplaning check</title><item identifier="i" identifierref="r"><title>Check</title></item></organization></organizations>' +
    '<resources><resource identifier="r" type="webcontent" adlcp:scormType="sco" href="sco/check.html"><file href="sco/check.html"/></resource></resources></manifest>';
  // The SCO finds the runtime as authoring tools' SCOs do, and reports a pass on its button.
  const sco = '<!doctype html><html lang="en"><head><title>Dermaplaning check</title><script src="check.js"></script></head>' +
    '<body><main><h1>Dermaplaning check</h1><p id="said">Not started</p><button type="button" id="finish">I have finished</button></main></body></html>';
  const script = 'const api = window.API_1484_11; api.Initialize("");\n' +
    'document.addEventListener("DOMContentLoaded", () => {\n' +
    '  document.getElementById("said").textContent = "Learner: " + api.GetValue("cmi.learner_name");\n' +
    '  document.getElementById("finish").addEventListener("click", () => {\n' +
    '    api.SetValue("cmi.completion_status", "completed"); api.SetValue("cmi.success_status", "passed");\n' +
    '    api.SetValue("cmi.score.scaled", "0.9"); api.SetValue("cmi.score.raw", "90"); api.Commit("");\n' +
    '    document.getElementById("said").textContent = "Finished";\n  });\n});\n';
  await page.goto('/admin/content/course/dermaplaning-online/');
  const section = page.getByRole('region', { name: 'SCORM package' });
  await section.getByLabel('SCORM package').setInputFiles({
    name: 'dermaplaning-2004.zip', mimeType: 'application/zip',
    buffer: zipOf({ 'imsmanifest.xml': manifest, 'sco/check.html': sco, 'sco/check.js': script }),
  });
  await section.getByRole('button', { name: /(Upload|Replace) the package/ }).click();
  await expect(page.getByText('Uploaded Dermaplaning check: students now study it in the course player.')).toBeVisible();
  await expect(section.getByText('Dermaplaning check (SCORM 2004)')).toBeVisible();

  // Given to a student by staff on the course's learners page.
  const email = `scorm-2004-${Date.now()}@example.com`;
  await createAccount(request, email);
  await page.goto('/admin/orders/online/learners/dermaplaning-online/');
  await page.getByLabel('Student’s email').fill(email);
  await page.getByRole('button', { name: 'Give the course' }).click();
  await expect(page.getByText(new RegExp(`^${email.replace(/[.]/g, '\\.')} has the course until `))).toBeVisible();

  const student = await newStudentPage(browser, email, PASSWORD, '/learn/dermaplaning-online/');
  const frame = student.page.frameLocator('iframe[title="Dermaplaning check: your course"]');
  await expect(frame.getByText('Learner: Shah, Priya')).toBeVisible();
  const passed = nextCommit(student.page);
  await frame.getByRole('button', { name: 'I have finished' }).click();
  const answer = (await (await passed).json()) as { percent: number; complete: boolean; certificate: string };
  expect(answer).toMatchObject({ percent: 100, complete: true });
  await expect(student.page.getByText('You have completed this course. Well done!')).toBeVisible();
  await expect(student.page.getByText(`Your certificate number is ${answer.certificate}.`)).toBeVisible();
  await student.page.screenshot({ path: '/tmp/shots/scorm-2004-complete-1366.png', fullPage: true });
  await student.context.close();
});

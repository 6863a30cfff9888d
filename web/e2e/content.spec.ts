import type { Browser, BrowserContext, Cookie, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, mailedLink, test } from './fixtures';
import { addOwner, setUp } from './staff';

// Content in the back office (issue 15, decision 018) in a real browser
// against the real server: an editor, added by an owner, changes a course
// (price and Markdown description), previews the draft, publishes it and
// sees the live page change, reverts it from the history, schedules an
// article, and is refused everything but content. The course and the
// article are this spec's own: no other browser test books or reads them.

const COURSE = { key: 'vitamin-b12-injections', title: 'Vitamin B12 Injections', url: '/courses/cpd/vitamin-b12-injections/', price: '£195.00' };
const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT ?? 8181}`;

/** An owner made on the command line adds an editor in the browser, who sets up: the editor's cookies. */
async function newEditor(browser: Browser): Promise<Cookie[]> {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const editor = { email: `editor-${stamp}@college.test`, name: `Eddie Editor ${stamp}` };
  const contexts: BrowserContext[] = [];
  const desk = async () => {
    const context = await browser.newContext({ baseURL: BASE_URL });
    contexts.push(context);
    return context.newPage();
  };
  try {
    const owner = await desk();
    await setUp(owner, addOwner(`owner-content-${stamp}@college.test`, 'Orla Owner'));
    await expect(owner.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await owner.getByRole('navigation').getByRole('link', { name: 'Staff' }).click();
    await owner.getByLabel('Email').fill(editor.email);
    await owner.getByLabel('Name').fill(editor.name);
    await owner.getByLabel('Role').selectOption({ label: 'Editor' });
    await owner.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(owner.getByText(editor.email)).toBeVisible();

    const page = await desk();
    await setUp(page, await mailedLink(owner.request, editor.email, '/admin/setup/'));
    // Signed in: an editor's back office has Content in its menu.
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Content' })).toBeVisible();
    return await page.context().cookies();
  } finally {
    for (const context of contexts) await context.close();
  }
}

let editorCookies: Cookie[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(60_000);
  editorCookies = await newEditor(browser);
});

test.beforeEach(async ({ page }) => {
  await page.context().addCookies(editorCookies);
});

/** London's date `days` from today, `YYYY-MM-DD`, as the site counts days. */
function londonDay(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(Date.now() + days * 86_400_000));
}

/** Opens a course's editor from the content list. */
async function openCourse(page: Page) {
  await page.goto('/admin/');
  await page.getByRole('navigation').getByRole('link', { name: 'Content' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Kinds of content' }).getByRole('link', { name: /^Courses/ }).click();
  await page.getByRole('link', { name: COURSE.title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Edit course: ${COURSE.title}` })).toBeVisible();
}

/** The live course page's price, description and structured data. */
function coursePage(page: Page) {
  return {
    price: page.locator('.course-buy .now-price'),
    description: page.locator('section[aria-labelledby="about-title"] .prose'),
    structured: async () => (await page.locator('script[type="application/ld+json"]').allTextContents()).join('\n'),
  };
}

test('an editor changes a course, previews the draft, publishes it and reverts it', async ({ page, request }) => {
  test.setTimeout(90_000);
  const live = await page.context().newPage();
  await live.goto(COURSE.url);
  const shown = coursePage(live);
  await expect(shown.price).toHaveText(`Now ${COURSE.price}`);

  await openCourse(page);
  const price = page.getByRole('textbox', { name: 'Price (£)', exact: true });
  await expect(price).toHaveValue('195.00');
  await price.fill('215');
  const markdown = '## Refreshed for next year\n\nNow with **bold guidance** on dosing. <script>alert(1)</script>\n';
  await page.getByRole('textbox', { name: 'Description', exact: true }).fill(markdown);

  // The live Markdown preview is the server's conversion: the script is text.
  const preview = page.getByRole('region', { name: 'Preview of Description' });
  await expect(preview.getByRole('heading', { name: 'Refreshed for next year' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('bold guidance');
  await expect(preview).toContainText('<script>alert(1)</script>');
  await expect(preview.locator('script')).toHaveCount(0);

  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText(/^Draft saved, .*Publish it to make it live\.$/)).toBeVisible();

  // The preview shows the draft, as the page will be; the live page does not change.
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const framed = page.frameLocator(`iframe[title="Preview of ${COURSE.title}"]`);
  await expect(framed.locator('.course-buy .now-price')).toHaveText('Now £215.00');
  await expect(framed.locator('section[aria-labelledby="about-title"] .prose strong')).toHaveText('bold guidance');
  await live.reload();
  await expect(shown.price).toHaveText(`Now ${COURSE.price}`);
  await expect(shown.description).not.toContainText('bold guidance');

  // Published (after a confirm step): the live page shows it within five seconds.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, publish it' }).click();
  await expect(page.getByText('Published as version 2.')).toBeVisible();
  await expect(async () => {
    await live.reload();
    await expect(shown.price).toHaveText('Now £215.00', { timeout: 500 });
  }).toPass({ timeout: 5_000 });
  await expect(shown.description.locator('strong')).toHaveText('bold guidance');
  await expect(shown.description).toContainText('<script>alert(1)</script>');
  await expect(shown.description.locator('script')).toHaveCount(0);
  expect(await shown.structured()).toContain('"price":"215.00"');
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toContain(COURSE.url);

  // Back to version 1 from the history (after a confirm step): the old price again.
  await page.getByRole('button', { name: 'Revert to version 1' }).click();
  await page.getByRole('button', { name: 'Yes, make version 1 live' }).click();
  await expect(page.getByText('Version 1 is live again, as version 3.')).toBeVisible();
  await expect(async () => {
    await live.reload();
    await expect(shown.price).toHaveText(`Now ${COURSE.price}`, { timeout: 500 });
  }).toPass({ timeout: 5_000 });
  await expect(shown.description).not.toContainText('bold guidance');
  expect(await shown.structured()).not.toContain('"price":"215.00"');
});

test('an editor schedules an article for tomorrow, then publishes it for today', async ({ page, request }) => {
  test.setTimeout(60_000);
  const slug = `content-spec-article-${Date.now()}`;
  const title = `Our new timetable ${slug.slice(-6)}`;
  await page.goto('/admin/content/?kind=blog');
  await page.getByRole('link', { name: 'New article' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New article' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Address', exact: true }).fill(slug);
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Excerpt', exact: true }).fill('What changes in our timetable, and when.');
  await page.getByRole('textbox', { name: 'Author', exact: true }).fill('Eddie Editor');
  await page.getByLabel('Published on').fill(londonDay(1));
  const image = page.getByRole('group', { name: 'Image' });
  await image.getByRole('textbox', { name: 'File name' }).fill('blog/balayage-trends-and-techniques.svg');
  await image.getByRole('textbox', { name: 'Alternative text' }).fill('Painted colour strokes in warm tones');
  await page.getByRole('textbox', { name: 'Tags', exact: true }).fill('news');
  await page.getByRole('textbox', { name: 'Article', exact: true }).fill('## What changes\n\nMore weekend dates.\n');
  await page.getByRole('button', { name: 'Create the article' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Edit article: ${title}` })).toBeVisible();
  await expect(page.getByText(/^Scheduled for /)).toBeVisible();

  // Scheduled: not listed, and its page is not there yet.
  const blog = await page.context().newPage();
  await blog.goto('/blog/');
  await expect(blog.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(blog.locator(`a[href="/blog/${slug}/"]`)).toHaveCount(0);
  expect((await request.get(`/blog/${slug}/`)).status()).toBe(404);

  // Dated today and published: it appears.
  await page.getByLabel('Published on').fill(londonDay(0));
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText(/^Draft saved, /)).toBeVisible();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, publish it' }).click();
  await expect(page.getByText('Published as version 2.')).toBeVisible();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();
  await expect(async () => {
    await blog.reload();
    await expect(blog.locator(`a[href="/blog/${slug}/"]`).first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 5_000 });
  await blog.locator(`a[href="/blog/${slug}/"]`).first().click();
  await expect(blog.getByRole('heading', { level: 1, name: title })).toBeVisible();
  expect((await request.get(`/blog/${slug}/`)).status()).toBe(200);
});

test('an editor is refused the orders, in the browser and by the server', async ({ page }) => {
  await page.goto('/admin/content/');
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Orders' })).toHaveCount(0);
  await page.goto('/admin/orders/');
  await expect(page.getByRole('heading', { level: 1, name: 'No access' })).toBeVisible();
  for (const path of ['/api/admin/orders', '/api/admin/dashboard', '/api/admin/staff', '/api/admin/sessions']) {
    expect((await page.request.get(path)).status(), path).toBe(403);
  }
});

test('the content list and the course editor have no axe violations and reflow at 320 px', async ({ page }) => {
  await page.goto('/admin/content/');
  await expect(page.getByRole('link', { name: COURSE.title, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await openCourse(page);
  // The Markdown preview has its first answer before the page is checked.
  await expect(page.getByRole('region', { name: 'Preview of Description' }).locator('h2').first()).toBeVisible();
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoSidewaysScroll(page);
});

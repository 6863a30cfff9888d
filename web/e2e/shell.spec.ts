import { dateChoices, expect, expectNoAxeViolations, hydrated, test } from './fixtures';

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page carries its content in the HTML', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Featured courses' })).toBeVisible();
    await expect(page.locator('.course-card').first()).toContainText('£');
    await expect(page.getByRole('link', { name: /Save Up To 50%/ })).toHaveAttribute('href', '/black-friday');
  });

  test('a course page carries its title, price and dates in the HTML', async ({ page }) => {
    await page.goto('/courses/aesthetics/');
    const first = page.locator('.course-card .card-title a').first();
    const title = (await first.textContent()) ?? '';
    await first.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.locator('.course-buy .now-price')).toHaveText(/^£\d{1,3}(,\d{3})*\.\d{2}$/);
    await expect(dateChoices(page)).toBeVisible();
  });
});

test('the home page hydrates without errors and shows the current year', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  const year = new Date().getFullYear();
  await expect(page.locator('.copyright')).toHaveText(`© ${year} Calderbrook Academy`);
  await expectNoAxeViolations(page);
});

test("a course page's scripts start after its picture is in, and a reader who acts first starts them at once", async ({ page }) => {
  await page.goto('/courses/aesthetics/');
  const course = (await page.locator('.course-card .card-title a').first().getAttribute('href')) ?? '';
  await page.goto(course);
  await hydrated(page);
  const { picture, entry } = await page.evaluate(() => {
    const lead = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
    const named = document.querySelector<HTMLScriptElement>('script[data-entry]')?.dataset.entry ?? '';
    const timing = (address: string) => performance.getEntriesByName(new URL(address, location.href).href)[0] as PerformanceResourceTiming | undefined;
    return { picture: lead && timing(lead.currentSrc)?.responseEnd, entry: timing(named)?.startTime };
  });
  expect(picture, 'the page has a picture of its own').toBeGreaterThan(0);
  expect(entry, 'the entry script was fetched').toBeGreaterThan(0);
  expect(entry!).toBeGreaterThanOrEqual(picture!);

  // A key pressed before the page has loaded starts the scripts without
  // waiting for the load: the picture's answer is held back here.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/image/**', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(course, { waitUntil: 'commit' });
  await page.locator('script[data-entry]').waitFor({ state: 'attached' });
  await page.keyboard.press('Shift');
  await hydrated(page);
  expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
  release();
});

test('the footer shows everything the shell promises', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: '27 Larkspur Row, Manchester, M4 6QT' })).toHaveAttribute('href', /google\.com\/maps\/search/);
  await expect(footer.getByRole('link', { name: '0161 496 0742' })).toHaveAttribute('href', 'tel:+441614960742');
  for (const name of ['Facebook', 'Instagram', 'YouTube', 'TikTok']) {
    await expect(footer.getByRole('link', { name: new RegExp(`on ${name}`) })).toBeVisible();
  }
  await expect(footer.getByRole('link', { name: 'hello@calderbrookacademy.co.uk' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'support@calderbrookacademy.co.uk' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'models@calderbrookacademy.co.uk' })).toBeVisible();
  for (const href of ['/courses/injectables/', '/courses/cpd/', '/training-course-calendar/', '/about/', '/team/', '/courses/education', '/courses/masterclasses/', '/courses/new/']) {
    await expect(page.locator(`[hidden] a[href="${href}"]`)).toHaveCount(1);
  }
});

test('links navigate on the client with the page data API', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  const pageData = page.waitForResponse((r) => r.url().includes('/api/page-data'));
  await page.getByRole('contentinfo').getByRole('link', { name: 'Pathway to Aesthetics' }).click();
  expect((await pageData).status()).toBe(200);
  await expect(page).toHaveURL('/pathway-to-aesthetics/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Pathway');
  await expect(page).toHaveTitle(/Pathway/);
  await page.goBack();
  await expect(page).toHaveURL('/');
});

test('an unknown address answers 404 with a helpful page', async ({ page }) => {
  const response = await page.goto('/no-such-page/');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByRole('link', { name: 'Browse all courses' })).toBeVisible();
});

test('the mobile layout shows the pathway bar and a slide-in menu', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await hydrated(page);
  await expect(page.getByRole('link', { name: /Pathway to Aesthetics, levels 4 to 7/ })).toBeVisible();
  const menuButton = page.getByRole('button', { name: 'Menu' });
  await menuButton.click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
});

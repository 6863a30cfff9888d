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

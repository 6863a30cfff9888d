import { chooseDate, dateChoices, expect, expectNoAxeViolations, hydrated, test } from './fixtures';

test('search finds a course as you type, by keyboard, and Escape returns focus', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  const open = page.getByRole('button', { name: 'Search courses and articles' });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Search courses and articles' });
  await expect(dialog.getByRole('searchbox')).toBeFocused();
  await page.keyboard.type('balayage');
  const result = dialog.getByRole('link', { name: /Balayage/ }).first();
  await expect(result).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('link').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  await open.click();
  await dialog.getByRole('searchbox').fill('zzzqqq');
  await expect(dialog.getByRole('status')).toHaveText('No courses or articles match “zzzqqq”.');
  await dialog.getByRole('searchbox').fill('balayage');
  await dialog.getByRole('link', { name: /Balayage/ }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Balayage');
  await expect(dialog).toBeHidden();
});

test('the courses mega menu opens by keyboard and closes with Escape', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await hydrated(page);
  const toggle = page.getByRole('button', { name: 'Courses menu' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const panel = page.locator('.mega-panel');
  await expect(panel.getByRole('link', { name: 'Injectables Courses', exact: true })).toBeVisible();
  // A section's title is said once in its link to all its courses.
  await expect(panel.getByRole('link', { name: /^All \d+ in Aesthetics Courses$/ })).toBeVisible();
  await expect(panel.getByText(/courses courses/i)).toHaveCount(0);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
});

test('the header shows the phone in +44 form, the callback link and the account icon', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: '0161 496 0742' })).toHaveAttribute('href', 'tel:+441614960742');
  await expect(header.getByRole('link', { name: 'Request a callback' })).toHaveAttribute('href', '/request-a-callback/');
  await expect(header.getByRole('link', { name: 'Your account' })).toHaveAttribute('href', '/sign-in/');
});

test('an in-person course goes into the basket and the badge counts it after a second', async ({ page }) => {
  await page.goto('/courses/aesthetics/');
  await hydrated(page);
  await page.locator('.course-card .card-title a').first().click();
  const dates = dateChoices(page);
  await expect(dates).toBeVisible();
  const choices = await dates.locator('label').allTextContents();
  for (const choice of choices) {
    expect(choice).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2}(st|nd|rd|th) [A-Z][a-z]+ · (On site|Virtual|Blended) £[\d,]+\.\d{2} · \d+ seats? left$/);
  }
  await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();
  const basket = page.getByRole('link', { name: /^Basket/ });
  await expect(basket).toHaveAttribute('href', '/checkout/');
  await expect(basket.locator('.basket-count')).toHaveText('1');
  const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem('courses') ?? '[]') as { selectedEvent: unknown }[]);
  expect(stored).toHaveLength(1);
  expect(stored[0]!.selectedEvent).not.toBeNull();
});

test('a course already in the basket changes its date instead of going in twice', async ({ page, request }) => {
  // A course with more than one date.
  const section = (await (await request.get('/api/page-data?path=/courses/aesthetics/')).json()) as { page: { courses: { url: string }[] } };
  let url = '';
  for (const course of section.page.courses) {
    const data = (await (await request.get(`/api/page-data?path=${course.url}`)).json()) as { page: { sessions?: unknown[] } };
    if ((data.page.sessions ?? []).length > 1) {
      url = course.url;
      break;
    }
  }
  await page.goto(url);
  const dates = dateChoices(page);
  await expect(dates).toBeVisible();
  await hydrated(page);
  const values = await dates.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).value));
  expect(values.length).toBeGreaterThan(1);
  await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect(page.getByRole('button', { name: 'In your basket' })).toBeDisabled();
  await chooseDate(page, values[1]!);
  await expect(page.getByText(/is already in your basket for .*Change it to the date chosen above/)).toBeVisible();
  await page.getByRole('button', { name: 'Change to this date' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is in your basket for the new date' })).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem('courses') ?? '[]') as { selectedEvent: { id: string } }[]);
  expect(stored.map((course) => course.selectedEvent.id)).toEqual([values[1]]);
  await expectNoAxeViolations(page);
});

test('only online courses in the basket: the basket icon toggles the Order Summary drawer', async ({ page }) => {
  await page.goto('/courses/elearning/');
  await hydrated(page);
  const link = page.locator('.course-card .card-title a').first();
  const title = (await link.textContent())!;
  await link.click();
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await expect(page.getByRole('button', { name: 'In your basket' })).toBeDisabled();
  const basket = page.getByRole('button', { name: /^Basket/ });
  await expect(basket.locator('.basket-count')).toHaveText('1');
  await basket.click();
  const drawer = page.getByRole('dialog', { name: 'Order Summary' });
  await expect(drawer.getByRole('heading', { name: title })).toBeVisible();
  await expectNoAxeViolations(page);
  // The icon stays in reach: a second press closes the drawer, on a phone too.
  await basket.click();
  await expect(drawer).toBeHidden();
  await page.setViewportSize({ width: 390, height: 800 });
  await basket.click();
  await expect(drawer).toBeVisible();
  await basket.click();
  await expect(drawer).toBeHidden();
  await basket.click();
  await drawer.getByRole('button', { name: `Remove ${title}` }).click();
  await expect(drawer.getByText('You have not added any online courses to your basket')).toBeVisible();
  await drawer.getByRole('button', { name: 'Continue browsing' }).click();
  await expect(drawer).toBeHidden();
});

test('a corrupt basket in browser storage is ignored, not fatal', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => {
    sessionStorage.setItem('courses', '{not json');
    sessionStorage.setItem('onlineCourses', JSON.stringify([{ url: 42 }]));
  });
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('link', { name: /^Basket, 0 courses/ })).toBeVisible();
});

for (const width of [390, 1366]) {
  test(`a mixed basket at ${width} px: the icon names both courses and the checkout opens the online one's basket`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/courses/elearning/');
    await hydrated(page);
    const online = page.locator('.course-card .card-title a').first();
    const title = (await online.textContent())!;
    await online.click();
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await expect(page.getByRole('button', { name: 'In your basket' })).toBeDisabled();
    await page.goto('/courses/aesthetics/');
    await hydrated(page);
    await page.locator('.course-card .card-title a').first().click();
    await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();

    await page.goto('/checkout/');
    await hydrated(page);
    // Heard as the page loads, before the badge shows, and as the badge shows it after.
    const basket = page.getByRole('link', { name: 'Basket, 2 courses' });
    await expect(basket).toBeVisible();
    await expect(basket.locator('.basket-count')).toHaveText('2');
    await expect(page.getByText('Preparing your checkout')).toBeHidden();
    await expect(page.getByText(`${title} is waiting in your online basket.`)).toBeVisible();
    await expectNoAxeViolations(page);

    const open = page.getByRole('button', { name: 'Open the online basket' });
    await open.click();
    const drawer = page.getByRole('dialog', { name: 'Order Summary' });
    await expect(drawer.getByRole('heading', { name: title })).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Book Now' })).toBeVisible();
    await expectNoAxeViolations(page);
    await drawer.getByRole('button', { name: 'Close basket' }).click();
    await expect(drawer).toBeHidden();
    await expect(open).toBeFocused();
  });
}

import { expect, expectNoAxeViolations, hydrated, test } from './fixtures';

// Every route the site's navigation names (docs/product.md#pages),
// with the heading each page must show.
const ROUTES: [string, RegExp][] = [
  ['/', /./],
  ['/courses/', /Our Courses/],
  ['/courses/vtct/', /VTCT/],
  ['/courses/aesthetics/', /Aesthetics/],
  ['/courses/cpd/', /CPD/],
  ['/courses/hair/', /Hair/],
  ['/courses/elearning/', /E-learning|Online/i],
  ['/courses/packages/', /Packages/],
  ['/courses/education/', /Education/],
  ['/courses/new/', /New/],
  ['/courses/injectables/', /Injectables/],
  ['/courses/masterclasses/', /Masterclasses/],
  ['/pathway-to-aesthetics/', /Pathway/],
  ['/training-course-calendar/', /Training Course Calendar/],
  ['/about/', /About/],
  ['/team/', /Team/],
  ['/careers/', /Careers/],
  ['/franchise-with-us/', /Franchise/],
  ['/blog/', /Blog/],
  ['/contact/', /Contact/],
  ['/request-a-callback/', /Callback/i],
  ['/for-business', /Business/i],
  ['/models/', /Model/i],
  ['/finance/', /Financ|Pay/i],
  ['/privacy-policy/', /Privacy/],
  ['/terms-and-conditions/', /Terms/],
  ['/black-friday', /Black Friday/i],
];

for (const [path, heading] of ROUTES) {
  test(`${path} answers 200 with its heading and no axe violations`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await hydrated(page);
    await expectNoAxeViolations(page);
  });
}

test('a course page in every section answers 200 with its heading and no axe violations', async ({ page }) => {
  test.setTimeout(120_000);
  const sections = ROUTES.map(([path]) => path).filter((p) => /^\/courses\/[a-z]+\/$/.test(p));
  for (const section of sections) {
    await page.goto(section);
    const link = page.locator('.course-card .card-title a').first();
    const title = (await link.textContent())!;
    const href = (await link.getAttribute('href'))!;
    const response = await page.goto(href);
    expect(response?.status(), href).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await hydrated(page);
    await expectNoAxeViolations(page);
  }
});

test('a blog article answers 200 with its heading and no axe violations', async ({ page }) => {
  await page.goto('/blog/');
  const link = page.locator('.blog-card h2 a').first();
  const title = (await link.textContent())!;
  await link.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const response = await page.reload();
  expect(response?.status()).toBe(200);
  await hydrated(page);
  await expectNoAxeViolations(page);
});

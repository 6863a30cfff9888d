import type { Browser, Locator, Page } from '@playwright/test';
import { allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, test } from './fixtures';
import { checkoutWith, payBookingFee, signedInStudent } from './accounts';
import { addOwner, setUp } from './staff';

// Course materials (decision 035) as staff and students meet them: staff
// attach a document (a course file), a link and a video to a course in the
// back office; a student who has only started the checkout sees none of
// them; once the booking fee is paid they are on the booking in the
// account, the document downloads, and another student gets a 404 for its
// address. At a phone's width and a laptop's.

const COURSE_ID = 'bb-glow';
const COURSE = '/courses/aesthetics/bb-glow/';
const SHOTS = '/tmp/shots/materials';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const section = (page: Page, name: string) => page.getByRole('region', { name });

/** Agrees to what the checkout `form` asks and pays its booking fee: the order's id. */
async function agreeAndPay(page: Page, form: Locator): Promise<string> {
  for (const box of await form.getByRole('checkbox', { name: /^I (accept the terms|meet the entry requirements)/ }).all()) await box.check();
  return payBookingFee(page, form);
}

/** A material added on the materials screen, with what its kind asks. */
async function addMaterial(page: Page, title: string, kind: RegExp, fill: (form: Locator) => Promise<void>) {
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add the material' }) });
  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  await form.getByRole('radio', { name: kind }).check();
  await fill(form);
  await form.getByRole('button', { name: 'Add the material' }).click();
  await expect(page.getByText(`Added ${title}.`)).toBeVisible();
}

/** A new browser of the site at `origin` with a student signed in, on a page of its own. */
async function anotherStudent(browser: Browser, origin: string, width: number) {
  const context = await browser.newContext({ baseURL: origin, viewport: { width, height: width < 600 ? 844 : 900 } });
  const page = await context.newPage();
  await signedInStudent(page, context.request);
  return { context, page };
}

for (const width of [390, 1366]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize({ width, height: width < 600 ? 844 : 900 }));

    test('staff attach materials; a student sees them only once the booking fee is paid; others get a 404', async ({ page, browser, consoleErrors }) => {
      test.setTimeout(120_000);
      const stamp = `${width}-${Date.now()}`;
      await setUp(page, addOwner(`materials-${stamp}@college.test`, 'Robin Owner'));
      const fileName = `Aftercare ${stamp}.pdf`;
      await page.goto('/admin/media/course-files/');
      await page.getByRole('button', { name: 'File', exact: true }).setInputFiles({ name: fileName, mimeType: 'application/pdf', buffer: PDF });
      await page.getByRole('button', { name: 'Upload the file' }).click();
      await expect(page.getByText(`Uploaded ${fileName}`)).toBeVisible();

      await page.goto(`/admin/courses/${COURSE_ID}/materials/`);
      await expect(page.getByRole('heading', { level: 1, name: /^Materials: BB Glow/ })).toBeVisible();
      // An address that is not https is refused beside its field.
      await addMaterial(page, `Skin guide ${stamp}`, /^Link/, async (form) => {
        await form.getByRole('textbox', { name: 'Address' }).fill('http://example.org/skin');
        await form.getByRole('button', { name: 'Add the material' }).click();
        await expect(form.getByText(/^Give a full address starting https:\/\//)).toBeVisible();
        await form.getByRole('textbox', { name: 'Address' }).fill('https://example.org/skin');
      });
      // The address refused on purpose answered 422.
      allowConsoleErrors(consoleErrors, /422 \(Unprocessable Entity\)/);
      await addMaterial(page, `Aftercare sheet ${stamp}`, /^Document/, async (form) => {
        await form.getByRole('button', { name: 'Choose the file' }).click();
        await form.getByLabel('Search the course files by name').fill(stamp);
        await form.getByRole('button', { name: new RegExp(fileName) }).click();
      });
      await addMaterial(page, `Treatment demo ${stamp}`, /^Video/, async (form) => {
        await form.getByRole('textbox', { name: 'Address' }).fill('https://vimeo.com/76979871');
      });
      const table = page.getByRole('table', { name: /^Materials/ });
      await expect(table.getByRole('row').filter({ hasText: stamp })).toHaveCount(3);
      await table.getByRole('button', { name: `Move Aftercare sheet ${stamp} up` }).click();
      await expect(page.getByText(`Moved Aftercare sheet ${stamp} up.`)).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SHOTS}/admin-materials-${width}.png`, fullPage: true });

      // A student who has only started the checkout sees nothing.
      const origin = new URL(page.url()).origin;
      const student = await anotherStudent(browser, origin, width);
      await checkoutWith(student.page, COURSE);
      await student.page.goto('/account/bookings/');
      await hydrated(student.page);
      await expect(section(student.page, 'Bookings').getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      await expect(student.page.getByRole('heading', { name: 'Course materials' })).toHaveCount(0);
      await expect(student.page.getByText(`Aftercare sheet ${stamp}`)).toHaveCount(0);

      await student.page.goto('/checkout/');
      await hydrated(student.page);
      await expect(student.page.getByText('Preparing your checkout')).toBeHidden();
      await agreeAndPay(student.page, student.page.getByRole('form', { name: 'Enrol and pay' }));
      await student.page.goto('/account/bookings/');
      await hydrated(student.page);
      const materials = section(student.page, 'Bookings').locator('.booking-materials');
      await expect(materials.getByRole('heading', { name: 'Course materials' })).toBeVisible();
      const items = materials.getByRole('listitem');
      await expect(items.filter({ hasText: stamp })).toHaveCount(3);
      await expect(items.filter({ hasText: `Aftercare sheet ${stamp}` })).toContainText('Document · PDF');
      const link = materials.getByRole('link', { name: new RegExp(`^Skin guide ${stamp}`) });
      await expect(link).toHaveAttribute('href', 'https://example.org/skin');
      await expect(link).toHaveAttribute('target', '_blank');
      const document = materials.getByRole('link', { name: `Aftercare sheet ${stamp}`, exact: true });
      const address = (await document.getAttribute('href')) ?? '';
      expect(address).toMatch(/^\/course-materials\/[0-9a-z-]+$/);
      const [download] = await Promise.all([
        student.page.waitForEvent('download'),
        materials.getByRole('link', { name: `Download Aftercare sheet ${stamp}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(fileName);
      await expectNoSidewaysScroll(student.page);
      await expectNoAxeViolations(student.page);
      await materials.scrollIntoViewIfNeeded();
      await materials.screenshot({ path: `${SHOTS}/account-booking-materials-${width}.png` });

      // Another student, and a visitor, get the 404 of a file that does not exist.
      const other = await anotherStudent(browser, origin, width);
      expect((await other.context.request.get(address)).status()).toBe(404);
      const visitor = await browser.newContext({ baseURL: origin });
      expect((await visitor.request.get(address)).status()).toBe(404);
      expect((await student.context.request.get(address)).status()).toBe(200);
      await visitor.close();
      await other.context.close();
      await student.context.close();
    });
  });
}

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { allowConsoleErrors, expect, expectNoAxeViolations, expectNoSidewaysScroll, hydrated, test } from './fixtures';
import { signIn } from './accounts';

// A certificate as the people who meet it do: an employer looks a number up
// at /certificates/ (or follows the QR code) and reads who holds it, for
// which course and when, year and all; a number never issued is not found;
// the student downloads the PDF from the account and any reader opens it.
// The demo student of ENROL_DEMO_STUDENTS holds the certificate.

const AMELIA = { email: 'amelia@student.example', password: 'training day 2027' };
const CERTIFICATE = 'EA-2026-04821';
const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });

const lookup = (page: Page) => page.getByRole('form', { name: /certificate$/ });

for (const width of [390, 1366]) {
  test(`an employer looks a certificate up by its number and reads its year; an unknown number is not found (${width} px)`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/certificates/');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check a certificate');
    await expect(lookup(page)).toHaveAccessibleName('Look up a certificate');
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/certificate-lookup-${width}.png`, fullPage: true });

    // Typed as people type it: small letters and a space.
    await lookup(page).getByLabel('Certificate number').fill(` ${CERTIFICATE.toLowerCase()} `);
    await lookup(page).getByRole('button', { name: 'Check certificate' }).click();
    await expect(page).toHaveURL(`/certificates/${CERTIFICATE}`);
    await expect(page.getByRole('status')).toHaveText(`Certificate ${CERTIFICATE} is genuine.`);
    const data = await page.request.get(`/api/page-data?path=/certificates/${CERTIFICATE}`);
    const { page: check } = (await data.json()) as { page: { certificate: { issuedOn: string } } };
    const issued = new Date(`${check.certificate.issuedOn}T12:00:00Z`);
    const [weekday, day, month, year] = [
      issued.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' }),
      issued.getUTCDate(),
      issued.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' }),
      issued.getUTCFullYear(),
    ];
    await expect(page.getByRole('definition')).toHaveText(['Amelia Hart', 'Foundation Skin Science', `${weekday} ${day} ${month} ${year}`]);
    await expect(lookup(page)).toHaveAccessibleName('Check another certificate');
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/certificate-genuine-${width}.png`, fullPage: true });

    // The page-data request answers 404 for a number never issued, as the page does.
    await lookup(page).getByLabel('Certificate number').fill('EA-0000-00000');
    await lookup(page).getByRole('button', { name: 'Check certificate' }).click();
    await expect(page).toHaveURL('/certificates/EA-0000-00000');
    await expect(page.getByRole('status')).toHaveText(/^We have no certificate with the number EA-0000-00000\./);
    allowConsoleErrors(consoleErrors, /status of 404 .*\/api\/page-data\?path=%2Fcertificates%2FEA-0000-00000\)$/);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/certificate-unknown-${width}.png`, fullPage: true });
    const opened = await page.goto('/certificates/EA-0000-00000');
    expect(opened?.status()).toBe(404);
    await hydrated(page);
    await expect(page.getByRole('status')).toHaveText(/^We have no certificate with the number EA-0000-00000\./);
    await expect(lookup(page).getByLabel('Certificate number')).toBeVisible();
  });

  test(`the student downloads her certificate as a PDF that a reader opens (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/sign-in/?next=/account/certificates/');
    await hydrated(page);
    await signIn(page, AMELIA.email, AMELIA.password);
    const certificates = page.getByRole('region', { name: 'Certificates' });
    await expect(certificates.getByRole('link', { name: `View certificate ${CERTIFICATE}` })).toHaveAttribute('href', `/certificates/${CERTIFICATE}`);
    const link = certificates.getByRole('link', { name: `Download certificate ${CERTIFICATE} (PDF)` });
    await expect(link).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/certificate-account-${width}.png`, fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`certificate-${CERTIFICATE}.pdf`);
    const pdf = `${SHOTS}/certificate-${width}.pdf`;
    await download.saveAs(pdf);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    for (const said of ['CERTIFICATE OF COMPLETION', 'Amelia Hart', 'Foundation Skin Science', `Certificate number ${CERTIFICATE}`, `/certificates/${CERTIFICATE}`]) {
      expect(text).toContain(said);
    }
    expect(text).toMatch(/at Calderbrook Academy on \w+day \d{1,2} \w+ \d{4}/);
    // A picture of the page, to be looked at.
    execFileSync('pdftoppm', ['-png', '-r', '80', '-singlefile', pdf, `${SHOTS}/certificate-pdf-${width}`]);
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the lookup form still finds the certificate', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto('/certificates/');
    await lookup(page).getByLabel('Certificate number').fill(CERTIFICATE);
    await lookup(page).getByRole('button', { name: 'Check certificate' }).click();
    await expect(page).toHaveURL(`/certificates/?number=${CERTIFICATE}`);
    await expect(page.getByRole('status')).toHaveText(`Certificate ${CERTIFICATE} is genuine.`);
    await expect(page.getByRole('definition').last()).toHaveText(/ \d{4}$/);
  });
});

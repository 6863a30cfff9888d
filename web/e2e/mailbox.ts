import type { APIRequestContext, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, expectNoSidewaysScroll } from './fixtures';

// The test servers' outbox at /dev/mailbox (ENROL_DEV_MAILBOX): a mail
// found by its reader and subject, and opened as a mail client shows its
// HTML part.

/** The address of the newest mail to `to` whose subject starts with `subject`, as its mail client shows it, on the instance `base` ('' for the test's own). */
export async function mailTo(request: APIRequestContext, to: string, subject: string, base = ''): Promise<string> {
  let address = '';
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`${base}/dev/mailbox`)).text()).split('<article>');
      const mail = mails.find((text) => text.includes(`To: ${to}<`) && text.startsWith(`<h2>${subject}`));
      const id = mail ? /href="\/dev\/mailbox\/([^"]+)"/.exec(mail)?.[1] : undefined;
      address = id ? `${base}/dev/mailbox/${id}` : '';
      return address;
    }, { message: `a mail "${subject}" to ${to}` })
    .not.toBe('');
  return address;
}

/** Opens the mail at `address` as a mail client shows it, at both widths, and looks at it. */
export async function lookAt(page: Page, address: string, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(address);
    const logo = page.getByRole('img').first();
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth), 'the PNG logo loads').toBe(360);
    await expectNoSidewaysScroll(page);
    // A mail is read inside its mail client's page, which has the landmarks;
    // the mail marks itself as an article, as email accessibility guidance asks.
    const axe = await new AxeBuilder({ page }).disableRules(['landmark-one-main', 'region']).analyze();
    expect(axe.violations.map((v) => v.id), 'axe violations').toEqual([]);
    await page.screenshot({ path: `/tmp/shots/mail-${name}-${width}.png`, fullPage: true });
  }
}

import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

interface Fixtures {
  /** Fails the test on any console error or uncaught exception in the page. */
  consoleErrors: string[];
  /**
   * The cookie choice already stored when a page first loads, so the banner
   * stays out of the way; `null` starts undecided (`test.use({ consent: null })`).
   */
  consent: { analytics: boolean; marketing: boolean } | null;
  storedConsent: void;
}

export const test = base.extend<Fixtures>({
  consent: [{ analytics: false, marketing: false }, { option: true }],
  storedConsent: [
    async ({ page, consent }, use) => {
      if (consent) {
        await page.addInitScript((choice) => {
          try {
            if (!localStorage.getItem('consent')) localStorage.setItem('consent', JSON.stringify({ version: 1, ...choice, decidedAt: new Date().toISOString() }));
          } catch {
            // about:blank has no storage; the site's own pages do.
          }
        }, consent);
      }
      await use();
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        // A page that answers 404 on purpose logs its own status; nothing else may fail.
        const ownStatus = message.text().startsWith('Failed to load resource') && message.location().url === page.url();
        if (!ownStatus) errors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Takes out the console errors a test expects (the browser logs a refused request the page handles), so only others fail it. */
export function allowConsoleErrors(errors: string[], expected: RegExp): void {
  errors.splice(0, errors.length, ...errors.filter((error) => !expected.test(error)));
}

/** Waits until React has hydrated the server's HTML. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, 'axe violations').toEqual([]);
}

/** The course's date choices ('Select course date:') in `scope`. */
export const dateChoices = (scope: Page | Locator) => scope.getByRole('group', { name: 'Select course date:' });

/** Chooses the date of session `sessionId` among the course's date choices in `scope`. */
export async function chooseDate(scope: Page | Locator, sessionId: string): Promise<void> {
  await dateChoices(scope).locator(`input[type="radio"][value="${sessionId}"]`).check();
}

/**
 * Ticks every box `scope` asks the buyer to agree to before paying: the
 * terms, each course's entry requirements, the request to start an online
 * course at once (decision 020).
 */
export async function agreeToAll(scope: Locator): Promise<void> {
  for (const box of await scope.getByRole('checkbox').all()) await box.check();
}

/** The page data the server embedded in the document. */
export async function pageData<T = Record<string, unknown>>(page: Page): Promise<T> {
  return JSON.parse((await page.locator('#__ENROL_DATA__').textContent()) ?? 'null') as T;
}

/** `£1,234.50`, independently of the app's own formatter. */
export const gbp = (pence: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(pence / 100);

/** Reads the test server's SQLite database directly. */
export function query(sql: string): unknown[][] {
  const script = 'import json, sqlite3, sys; print(json.dumps(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()))';
  return JSON.parse(execFileSync('python3', ['-c', script, process.env.E2E_DATABASE!, sql]).toString()) as unknown[][];
}

/** Changes the test server's database directly: what staff would do in the back office (a seat added, say). */
export function execute(sql: string): void {
  const script = 'import sqlite3, sys; db = sqlite3.connect(sys.argv[1], timeout=10); db.execute(sys.argv[2]); db.commit()';
  execFileSync('python3', ['-c', script, process.env.E2E_DATABASE!, sql]);
}

/**
 * Fails when the page is wider than the screen: WCAG 1.4.10 reflow, at 320
 * CSS pixels say. Text drawn without fonts takes no room and could never
 * overflow, so the page's main heading must first be laid out in real
 * glyphs, about half an em each at least.
 */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => {
    const heading = document.querySelector('h1');
    const text = document.createRange();
    if (heading) text.selectNodeContents(heading);
    return {
      page: document.documentElement.scrollWidth,
      screen: window.innerWidth,
      // Summed over its lines, so a long heading in a narrow column counts whole.
      heading: heading ? [...text.getClientRects()].reduce((sum, line) => sum + line.width, 0) : 0,
      least: heading ? (heading.textContent ?? '').length * Number.parseFloat(getComputedStyle(heading).fontSize) * 0.4 : 1,
    };
  });
  expect(widths.heading, 'the main heading laid out in real glyphs (are fonts installed?)').toBeGreaterThan(Math.min(widths.least, widths.screen * 0.5));
  expect(widths.page, 'page width against the screen').toBeLessThanOrEqual(widths.screen);
}

/**
 * The newest link to `path` mailed to `to`, as a path with its query, read
 * from the outbox at /dev/mailbox (the test server sets ENROL_DEV_MAILBOX).
 */
export async function mailedLink(request: APIRequestContext, to: string, path: string): Promise<string> {
  let link = '';
  await expect.poll(async () => {
    const mails = (await (await request.get('/dev/mailbox')).text()).split('<article>');
    const linked = (text: string) => text.includes(path) && text.includes('?token=');
    const mail = mails.find((text) => text.includes(`To: ${to}<`) && text.split('\n').some(linked));
    const line = mail?.split('\n').find(linked);
    // The link may follow words on its line ("Your receipt RCT-000001: https://…").
    const address = line ? new URL(line.slice(line.indexOf('http')).trim().split(/\s/)[0]!) : null;
    link = address ? address.pathname + address.search : '';
    return link;
  }, { message: `a ${path} link mailed to ${to}` }).not.toBe('');
  return link;
}

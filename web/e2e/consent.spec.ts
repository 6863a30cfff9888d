import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, hydrated, test } from './fixtures';

// A first visit: nothing stored, so the banner asks. The server runs with
// one marketing tool's id (there is nothing to ask about without one), so no
// choice but marketing may bring in anything from another site.
test.use({ consent: null });

/** Records every request the page makes to another host. */
function thirdPartyRequests(page: Page, baseURL: string): string[] {
  const ours = new URL(baseURL).host;
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.host !== ours) requests.push(request.url());
  });
  return requests;
}

async function externalScripts(page: Page): Promise<string[]> {
  return page.locator('script[src]').evaluateAll((scripts) =>
    scripts.map((script) => (script as HTMLScriptElement).src).filter((src) => new URL(src).origin !== window.location.origin),
  );
}

async function storedConsent(page: Page): Promise<unknown> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('consent') ?? 'null') as unknown);
}

const banner = (page: Page) => page.getByRole('region', { name: 'Cookies on this site' });

test('a first visit asks for a cookie choice, after the page has loaded', async ({ page, baseURL }) => {
  const thirdParty = thirdPartyRequests(page, baseURL!);
  const response = await page.goto('/');
  expect(await response!.text()).not.toContain('Accept all');
  await hydrated(page);
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole('link', { name: 'Read our privacy policy' })).toHaveAttribute('href', '/privacy-policy/');
  for (const name of ['Accept all', 'Reject all', 'Manage choices']) await expect(banner(page).getByRole('button', { name })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await externalScripts(page)).toEqual([]);
  expect(thirdParty).toEqual([]);
});

test('Reject all hides the banner, and it stays hidden after a reload', async ({ page, baseURL }) => {
  const thirdParty = thirdPartyRequests(page, baseURL!);
  await page.goto('/');
  await hydrated(page);
  await banner(page).getByRole('button', { name: 'Reject all' }).click();
  await expect(banner(page)).toBeHidden();
  expect(await storedConsent(page)).toEqual({ version: 1, analytics: false, marketing: false, decidedAt: expect.any(String) as unknown });
  await page.reload();
  await hydrated(page);
  await expect(page.locator('.copyright')).toBeVisible();
  await expect(banner(page)).toBeHidden();
  expect(await externalScripts(page)).toEqual([]);
  expect(thirdParty).toEqual([]);
});

test('Manage choices saves analytics alone, and Cookie settings shows it again', async ({ page, baseURL }) => {
  const thirdParty = thirdPartyRequests(page, baseURL!);
  await page.goto('/?utm_source=newsletter');
  await hydrated(page);
  await banner(page).getByRole('button', { name: 'Manage choices' }).click();
  const choices = page.getByRole('region', { name: 'Manage choices' });
  await expect(choices.getByRole('checkbox', { name: 'Analytics' })).toBeFocused();
  await expect(choices.getByRole('checkbox', { name: 'Analytics' })).not.toBeChecked();
  await expect(choices.getByRole('checkbox', { name: 'Marketing' })).not.toBeChecked();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Space');
  await choices.getByRole('button', { name: 'Save choices' }).click();
  await expect(choices).toBeHidden();
  expect(await storedConsent(page)).toEqual({ version: 1, analytics: true, marketing: false, decidedAt: expect.any(String) as unknown });
  expect(await page.evaluate(() => localStorage.getItem('sourceParams'))).toBeNull();

  await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' }).click();
  await expect(choices.getByRole('checkbox', { name: 'Analytics' })).toBeChecked();
  await expect(choices.getByRole('checkbox', { name: 'Marketing' })).not.toBeChecked();
  expect(await externalScripts(page)).toEqual([]);
  expect(thirdParty).toEqual([]);
});

test('on a phone the banner is a short bar of equal buttons that leaves the page usable', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/courses/aesthetics/');
  await hydrated(page);
  const box = (await banner(page).boundingBox())!;
  expect(box.y + box.height).toBeCloseTo(844, 0);
  expect(box.height).toBeLessThan(844 * 0.4);
  const sizes = await banner(page).getByRole('button').evaluateAll((buttons) => buttons.map((button) => {
    const rect = button.getBoundingClientRect();
    return `${Math.round(rect.width)}x${Math.round(rect.height)}`;
  }));
  expect(sizes).toHaveLength(3);
  expect(new Set(sizes).size).toBe(1);

  await page.locator('.course-card .card-title a').first().click();
  await page.getByRole('button', { name: 'Add to basket and enrol' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is in your basket' })).toBeVisible();
  await expect(banner(page)).toBeVisible();
});

import type { Page } from '@playwright/test';
import { expect, expectNoSidewaysScroll, hydrated, test } from './fixtures';

// WCAG 1.4.10 Reflow: every page the site serves, and a course
// page of every section, reads at 320 px wide with no sideways scrolling.
// The pages come from the sitemap, so a new page is checked without a new
// line here; the unlisted ones are named.

const UNLISTED = ['/checkout/', '/sign-in/', '/sign-up/', '/forgot-password/', '/account/', '/certificates/EA-0000-00000', '/no-such-page/'];

/** The page's width past the screen and the elements reaching past its right edge (which `overflow: hidden` would hide from the width). */
async function pastTheEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const edge = document.documentElement.clientWidth;
    const scroll = document.documentElement.scrollWidth > window.innerWidth ? [`page ${document.documentElement.scrollWidth}px`] : [];
    return scroll.concat(Array.from(document.querySelectorAll('main *'))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        return box.width > 0 && box.right > edge + 1 && style.visibility !== 'hidden' && !element.closest('.visually-hidden, [aria-hidden="true"]');
      })
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}px`));
  });
}

/** Opens `path` at 320 px; what reaches past the edge, by page. */
async function check(page: Page, path: string, found: Record<string, string[]>) {
  await page.goto(path);
  await hydrated(page);
  const wide = await pastTheEdge(page);
  if (wide.length > 0) found[path] = wide;
}

test('every page and a course of every section reflow at 320 px', async ({ page, request, consoleErrors }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 320, height: 720 });
  const sitemap = await (await request.get('/sitemap.xml')).text();
  const listed = Array.from(sitemap.matchAll(/<loc>[^<]*?(\/[^<]*)<\/loc>/g), (m) => new URL(m[1]!, 'http://x').pathname);
  const sections = listed.filter((path) => /^\/courses\/[a-z-]+\/$/.test(path));
  const pages = [...new Set([...listed.filter((path) => !/^\/(courses\/[a-z-]+\/[a-z0-9-]+|blog\/[a-z0-9-]+)\/$/.test(path)), ...UNLISTED])];
  expect(sections.length).toBeGreaterThan(5);
  // Widths mean something only with real glyphs: the shared check says so on the home page.
  await page.goto('/');
  await hydrated(page);
  await expectNoSidewaysScroll(page);
  const found: Record<string, string[]> = {};
  for (const path of pages) await check(page, path, found);
  for (const section of sections) {
    await page.goto(section);
    const course = await page.locator('.course-card .card-title a').first().getAttribute('href');
    await check(page, course!, found);
  }
  const article = listed.find((path) => /^\/blog\/[a-z0-9-]+\/$/.test(path));
  await check(page, article!, found);
  expect(found, 'pages wider than 320 px').toEqual({});
  // The page that is not found answers 404 on purpose.
  expect(consoleErrors.every((error) => error.includes('404'))).toBe(true);
  consoleErrors.splice(0);
});

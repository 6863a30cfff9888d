import { describe, expect, it } from 'vitest';
import { render, renderPage } from './entry-server';
import { ShellCache } from './app/shell/shell-cache';
import type { ShellParts } from './app/shell/shell-part';
import type { CourseCard } from './generated/CourseCard';
import type { PageEnvelope } from './generated/PageEnvelope';
import { site } from './test/fixtures';

const nav = {
  sections: ['Aesthetics', 'Beauty', 'Lashes'].map((title) => ({
    slug: title.toLowerCase(),
    title,
    url: `/courses/${title.toLowerCase()}/`,
    courses: Array.from({ length: 8 }, (_, i) => ({ text: `${title} course ${i + 1}`, link: `/${title.toLowerCase()}-${i + 1}/` })),
  })),
};

const card = (n: number): CourseCard => ({
  id: `course-${n}`,
  title: `Course ${n}`,
  url: `/course-${n}/`,
  sectionTitle: 'Aesthetics',
  summary: 'Hands-on training with live models.',
  image: { url: `/media/courses/${n}.jpg`, alt: `Course ${n}`, width: 800, height: 600 },
  online: false,
  isPackage: false,
  isNew: n === 1,
  price: 34500,
  priceFrom: false,
  wasPrice: null,
  duration: '1 day',
  level: 'Beginner',
  nextSession: null,
});

const envelope = (path: string, page: PageEnvelope['page'], change: Partial<PageEnvelope> = {}): PageEnvelope => ({
  path,
  status: page.kind === 'notFound' ? 404 : 200,
  now: '2026-12-02T10:00:00',
  site,
  nav,
  head: { title: 'Calderbrook Academy', description: 'Training', canonical: path },
  page,
  ...change,
});

// Course cards with pictures, and a form whose ids come from `useId`.
const notFound = (path: string, change: Partial<PageEnvelope> = {}) => envelope(path, { kind: 'notFound', suggestions: [card(1), card(2), card(3)] }, change);
const signIn = envelope('/sign-in/', { kind: 'signIn', heading: 'Sign in' });

/** The server's render of `page`, checked against the browser's first render of it. */
function rendered(page: PageEnvelope): string {
  const html = render(page.path, JSON.stringify(page));
  expect(html).toBe(renderPage(page.path, page, null));
  return html;
}

describe("the server's render", () => {
  it('is the page as the browser first renders it, whether the shell is kept or not', () => {
    for (const page of [notFound('/missing/'), signIn, notFound('/gone/'), signIn]) {
      const html = rendered(page);
      expect(html).not.toContain('<template');
      expect(html).toContain('<header class="site-header">');
      expect(html).toContain('© 2026 Calderbrook Academy');
    }
  });

  it('renders the shell again when what it shows changes', () => {
    rendered(notFound('/missing/'));
    const renamed = rendered(notFound('/missing/', { site: { ...site, title: 'Calderbrook Training' } }));
    expect(renamed).toContain('alt="Calderbrook Training"');
    expect(renamed).toContain('© 2026 Calderbrook Training');
    const newYear = rendered(notFound('/missing/', { now: '2027-01-01T00:05:00' }));
    expect(newYear).toContain('© 2027 Calderbrook Academy');
    const fewerCourses = rendered(notFound('/missing/', { nav: { sections: nav.sections.slice(0, 1) } }));
    expect(fewerCourses).not.toContain('Lashes course 1');
  });
});

describe('the shell cache', () => {
  /** A page whose header shows `header`, as `ShellPart` renders it; `kept` records what the cache answered. */
  const page = (header: string, kept: boolean[]) => (parts: ShellParts) => {
    kept.push(parts.kept('header', header));
    return kept.at(-1)
      ? '<template data-shell-part="header"></template><main>page</main>'
      : `<template data-shell-start="header"></template><header>${header}</header><template data-shell-end="header"></template><main>page</main>`;
  };

  it('renders a part once for the same inputs and puts it back in its place', () => {
    const shell = new ShellCache();
    const kept: boolean[] = [];
    for (const header of ['A', 'A', 'B $& $1', 'B $& $1']) {
      expect(shell.render(page(header, kept))).toBe(`<header>${header}</header><main>page</main>`);
    }
    expect(kept).toEqual([false, true, false, true]);
  });

  it('refuses a render whose part is not whole', () => {
    const shell = new ShellCache();
    expect(() => shell.render((parts) => (parts.kept('footer', 'x') ? '' : '<template data-shell-start="footer"></template><footer>'))).toThrow(
      "The shell's footer did not render whole",
    );
  });
});

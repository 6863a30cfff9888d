import { afterEach, describe, expect, it } from 'vitest';
import { routedPath } from './anchor-navigation';

const origin = 'http://127.0.0.1:8181';

/** A click on a link made from `html`, with the given mouse details. */
function clickOn(html: string, init: MouseEventInit = {}): MouseEvent {
  document.body.innerHTML = html;
  const target = document.querySelector('[data-target]') ?? document.querySelector('a')!;
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  Object.defineProperty(event, 'target', { value: target });
  return event;
}

describe('routedPath', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('routes a plain same-site link, with its query and hash', () => {
    expect(routedPath(clickOn('<a href="/courses/aesthetics/?sort=price#list">x</a>'), origin, '/')).toBe('/courses/aesthetics/?sort=price#list');
    expect(routedPath(clickOn('<a href="/about/"><span data-target>About</span></a>'), origin, '/')).toBe('/about/');
  });

  it('leaves modified and non-primary clicks to the browser', () => {
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      expect(routedPath(clickOn('<a href="/about/">x</a>', init), origin, '/')).toBeNull();
    }
  });

  it('leaves other origins, windows, downloads, phone links and server addresses to the browser', () => {
    for (const html of [
      '<a href="https://clinic.example/">x</a>',
      '<a href="/about/" target="_blank">x</a>',
      '<a href="/media/guide.pdf" download>x</a>',
      '<a href="tel:+441632960123">x</a>',
      '<a href="/sandbox/checkout/cs_1">x</a>',
      '<a href="/sitemap.xml">x</a>',
      '<a>no address</a>',
    ]) {
      expect(routedPath(clickOn(html), origin, '/'), html).toBeNull();
    }
  });

  it('lets a jump within the same page scroll by itself', () => {
    expect(routedPath(clickOn('<a href="/faq/#fees">x</a>'), origin, '/faq/')).toBeNull();
    expect(routedPath(clickOn('<a href="/faq/">x</a>'), origin, '/faq/')).toBe('/faq/');
  });

  it('does nothing for a click a handler has already dealt with', () => {
    const event = clickOn('<a href="/about/">x</a>');
    event.preventDefault();
    expect(routedPath(event, origin, '/')).toBeNull();
  });
});

import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserRouter, Link, routedPath, StaticRouter, useLocation, useNavigate } from './router';

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

/** Where the router says it is, as text. */
function Here() {
  const { pathname, search, hash, state } = useLocation();
  return <p data-testid="here">{`${pathname}${search}${hash} ${JSON.stringify(state)}`}</p>;
}

const here = () => screen.getByTestId('here').textContent;

describe('the browser router', () => {
  /** Goes where pages go in code: to the account with a notice, in place of this entry; to a sorted list. */
  function Steering() {
    const navigate = useNavigate();
    return (
      <>
        <button type="button" onClick={() => navigate('/account/', { replace: true, state: { accountNotice: 'Welcome back.' } })}>
          To the account
        </button>
        <button type="button" onClick={() => navigate('/courses/?sort=price')}>
          To the courses
        </button>
      </>
    );
  }

  function renderRouter() {
    render(
      <BrowserRouter>
        <Link to="/about/?from=menu">About us</Link>
        <Here />
        <Steering />
      </BrowserRouter>,
    );
  }

  afterEach(() => window.history.replaceState(null, '', '/'));

  it('starts where the window is, with its history entry’s state', () => {
    window.history.replaceState({ state: { accountNotice: 'Saved.' } }, '', '/account/?tab=orders#bookings');
    renderRouter();
    expect(here()).toBe('/account/?tab=orders#bookings {"accountNotice":"Saved."}');
  });

  it('follows a link’s click without loading the page, adding a history entry', async () => {
    renderRouter();
    const entries = window.history.length;
    await userEvent.click(screen.getByRole('link', { name: 'About us' }));
    expect(window.location.pathname + window.location.search).toBe('/about/?from=menu');
    expect(here()).toBe('/about/?from=menu null');
    expect(window.history.length).toBe(entries + 1);
  });

  it('leaves a modified click to the browser', async () => {
    renderRouter();
    const link = screen.getByRole('link', { name: 'About us' });
    // What the browser would be left to do (a new tab), seen after React's handlers; jsdom opens nothing.
    let leftToTheBrowser = false;
    const watch = (event: Event) => {
      leftToTheBrowser = !event.defaultPrevented;
      event.preventDefault();
    };
    window.addEventListener('click', watch);
    act(() => void link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ctrlKey: true })));
    window.removeEventListener('click', watch);
    expect(leftToTheBrowser).toBe(true);
    expect(here()).toBe('/ null');
  });

  it('goes elsewhere with state, in place of the current entry when asked, and back with popstate', async () => {
    renderRouter();
    const entries = window.history.length;
    await userEvent.click(screen.getByRole('button', { name: 'To the account' }));
    expect(here()).toBe('/account/ {"accountNotice":"Welcome back."}');
    expect(window.history.length).toBe(entries);
    await userEvent.click(screen.getByRole('button', { name: 'To the courses' }));
    expect(here()).toBe('/courses/?sort=price null');
    act(() => {
      window.history.replaceState({ state: { accountNotice: 'Welcome back.' } }, '', '/account/');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(here()).toBe('/account/ {"accountNotice":"Welcome back."}');
  });
});

describe('the server’s router', () => {
  it('is at the address it was given, and renders links as plain links', () => {
    render(
      <StaticRouter location="/courses/aesthetics/?sort=price">
        <Link to="/about/">About us</Link>
        <Here />
      </StaticRouter>,
    );
    expect(here()).toBe('/courses/aesthetics/?sort=price null');
    expect(screen.getByRole('link', { name: 'About us' })).toHaveAttribute('href', '/about/');
  });
});

import { act, screen, within } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from '../../test/memory-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../lib/auth';
import { BasketProvider } from '../../lib/basket';
import type { AuthSession } from '../../generated/AuthSession';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { amaraUserDataAnswer, signedIn, signedOut } from '../../test/auth-fixtures';
import { site } from '../../test/fixtures';
import { renderWithAuth } from '../../test/render-with-auth';
import { SiteHeader } from './site-header';

const header = (
  <MemoryRouter>
    <AuthProvider>
      <BasketProvider>
        <SiteHeader site={site} nav={{ sections: [] }} />
      </BasketProvider>
    </AuthProvider>
  </MemoryRouter>
);

const accountLink = () => within(screen.getByRole('banner')).getByRole('link', { name: 'Your account' });

let root: Root | null = null;

/** The server's HTML, hydrated as the browser would, for a visitor whose session answers `session`. */
async function hydrateHeader(session: () => Promise<Response>) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(header);
  document.body.append(container);
  expect(container.querySelector('a[href="/sign-in/"]')).toBeInTheDocument();
  stubApi({ 'GET /api/auth/session': session, ...amaraUserDataAnswer });
  const mismatches: unknown[] = [];
  await act(async () => {
    root = hydrateRoot(container, header, { onRecoverableError: (error) => mismatches.push(error) });
  });
  expect(mismatches).toEqual([]);
}

describe('SiteHeader account link', () => {
  afterEach(() => {
    act(() => root?.unmount());
    root = null;
    document.body.innerHTML = '';
  });

  it('links to sign-in until the session is known, then to the account for a signed-in user, without a hydration mismatch', async () => {
    let answer: (response: Response) => void = () => {};
    await hydrateHeader(() => new Promise((resolve) => (answer = resolve)));
    expect(accountLink().getAttribute('href')).toBe('/sign-in/');
    await act(async () => answer(jsonResponse(200, signedIn)));
    expect(accountLink().getAttribute('href')).toBe('/account/');
    expect(accountLink().tagName).toBe('A');
  });

  it('keeps linking to sign-in for a visitor', async () => {
    const answer = (session: AuthSession) => async () => jsonResponse(200, session);
    await hydrateHeader(answer(signedOut));
    await vi.waitFor(() => expect(accountLink().getAttribute('href')).toBe('/sign-in/'));
  });
});

describe('SiteHeader courses menu', () => {
  it('names each section once in its link to all its courses', async () => {
    stubApi({ 'GET /api/auth/session': async () => jsonResponse(200, signedOut) });
    const courses = Array.from({ length: 8 }, (_, i) => ({ text: `Course ${i}`, link: `/courses/c${i}/` }));
    const sections = ['Aesthetics Courses', 'Masterclasses'].map((title, i) => ({ slug: `s${i}`, title, url: `/courses/s${i}/`, courses }));
    renderWithAuth(<SiteHeader site={site} nav={{ sections }} />);
    const menu = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(menu.getByRole('link', { name: 'All 8 in Aesthetics Courses' }).getAttribute('href')).toBe('/courses/s0/');
    expect(menu.getByRole('link', { name: 'All 8 in Masterclasses' }).getAttribute('href')).toBe('/courses/s1/');
    await act(async () => {});
  });
});

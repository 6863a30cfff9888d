import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { CurrentAddress, MemoryRouter, Pages, type InitialEntry } from './memory-router';
import { AccountPage } from '../features/account/account-page';
import { AuthProvider } from '../lib/auth';
import { BasketProvider } from '../lib/basket';

/** Renders `ui` at `path` (with its history state, if any) inside the auth context and the baskets, as the app does, with the router's address readable by `address()`. */
export function renderWithAuth(ui: ReactElement, path: InitialEntry = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AuthProvider>
        <BasketProvider>
          {ui}
          <CurrentAddress />
        </BasketProvider>
      </AuthProvider>
    </MemoryRouter>,
  );
}

/** Renders `ui` at `path` as `renderWithAuth` does, with the account page at /account/ to land on. */
export function renderThenAccount(ui: ReactElement, path: string) {
  return renderWithAuth(
    <Pages pages={{ '/account/': <AccountPage page={{ heading: 'Your account' }} today="2026-11-26" />, [path.split('?')[0] ?? path]: ui }} />,
    path,
  );
}

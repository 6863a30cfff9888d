import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { useLocation } from '../lib/router';
import { MemoryRouter, Pages, type InitialEntry } from './memory-router';
import { AccountPage } from '../features/account/account-page';
import { AuthProvider } from '../lib/auth';
import { BasketProvider } from '../lib/basket';

function CurrentAddress() {
  const { pathname, search } = useLocation();
  return <p data-testid="address">{pathname + search}</p>;
}

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

/** The router's current path and query. */
export const address = () => screen.getByTestId('address').textContent;

/** Renders `ui` at `path` as `renderWithAuth` does, with the account page at /account/ to land on. */
export function renderThenAccount(ui: ReactElement, path: string) {
  return renderWithAuth(
    <Pages pages={{ '/account/': <AccountPage page={{ heading: 'Your account' }} today="2026-11-26" />, [path.split('?')[0] ?? path]: ui }} />,
    path,
  );
}

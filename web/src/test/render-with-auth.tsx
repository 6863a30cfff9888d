import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { AuthProvider } from '../features/auth/auth-context';

function CurrentAddress() {
  const { pathname, search } = useLocation();
  return <p data-testid="address">{pathname + search}</p>;
}

/** Renders `ui` at `path` inside the auth context, with the router's address readable by `address()`. */
export function renderWithAuth(ui: ReactElement, path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AuthProvider>
        {ui}
        <CurrentAddress />
      </AuthProvider>
    </MemoryRouter>,
  );
}

/** The router's current path and query. */
export const address = () => screen.getByTestId('address').textContent;

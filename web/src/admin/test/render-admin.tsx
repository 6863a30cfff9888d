import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, createRoutesFromElements, Outlet, Route, RouterProvider, useLocation } from 'react-router';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { adminRoutes } from '../admin-app';
import type { Staff } from '../lib/api-types';
import { BASENAME } from '../paths';

function CurrentAddress() {
  const { pathname, search } = useLocation();
  return <p data-testid="address">{pathname + search}</p>;
}

/** The router's current path and query, below /admin. */
export const address = () => screen.getByTestId('address').textContent;

export const signedOut = () => jsonResponse(401, { error: { code: 'unauthorized', message: 'Please sign in.' } });
export const forbidden = () => jsonResponse(403, { error: { code: 'forbidden', message: 'Not allowed.' } });

/**
 * Renders the whole back office at `path` (below /admin) with `staff` signed
 * in (or nobody, for `null`), the API stubbed with `answers` besides the
 * session. Returns the stub, whose `calls` are what the page sent, and
 * `visit(path)`, which moves to another address as a link or the browser's
 * back button would, without leaving the back office.
 */
export function renderAdmin(path: string, staff: Staff | null, answers: Record<string, Answer> = {}) {
  const api = stubApi({
    'GET /api/admin/session': () => (staff ? jsonResponse(200, { staff }) : signedOut()),
    ...answers,
  });
  const withAddress = (
    <Route
      element={
        <>
          <Outlet />
          <CurrentAddress />
        </>
      }
    >
      {adminRoutes}
    </Route>
  );
  const router = createMemoryRouter(createRoutesFromElements(withAddress), { basename: BASENAME, initialEntries: [`${BASENAME}${path}`] });
  render(<RouterProvider router={router} />);
  const visit = (to: string) => act(() => router.navigate(to));
  return Object.assign(api, { visit });
}

/** The requests to `route` ("METHOD path"), with their URLs, bodies and options. */
export const callsTo = (api: ReturnType<typeof stubApi>, route: string) => api.requests.filter((request) => request.route === route);

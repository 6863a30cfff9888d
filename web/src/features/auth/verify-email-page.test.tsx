import { screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AccountData } from '../../generated/AccountData';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { amaraData, signedIn, signedOut } from '../../test/auth-fixtures';
import { address, renderThenAccount } from '../../test/render-with-auth';
import { VerifyEmailPage } from './verify-email-page';

const page = { heading: 'Confirm your email address' };
const noBookings: AccountData = { user: amaraData, enrollments: [], payments: [], onlineCourses: [] };
const expired = 'This link has expired or was already used. Sign in and we will send you a new one.';

function verifyApi(verify: Answer) {
  let verified = false;
  return stubApi({
    'GET /api/auth/session': () => jsonResponse(200, verified ? signedIn : signedOut),
    'POST /api/auth/verify': async (body) => {
      const answer = await verify(body);
      verified = answer.ok;
      return answer;
    },
    'GET /api/account': () => jsonResponse(200, noBookings),
  });
}

/** Opens the mailed link, as the browser's address bar would have it. */
function openLink(path: string, ui = <VerifyEmailPage page={page} />) {
  window.history.replaceState(null, '', path);
  renderThenAccount(ui, path);
}

describe('VerifyEmailPage', () => {
  it('sends the link’s token once, and the account then says the email is confirmed and shows the user', async () => {
    const api = verifyApi(() => jsonResponse(200, signedIn));
    openLink('/verify-email/?token=t0k3n', <StrictMode><VerifyEmailPage page={page} /></StrictMode>);
    expect(screen.getByRole('heading', { level: 1, name: 'Confirm your email address' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Confirming your email address...');
    expect(await screen.findByText('Your email address is confirmed, and you are signed in.')).toBeTruthy();
    expect(address()).toBe('/account/');
    expect(await screen.findByText('amara@example.com')).toBeTruthy();
    expect(api.calls.filter((call) => call.route === 'POST /api/auth/verify')).toEqual([
      { route: 'POST /api/auth/verify', body: { token: 't0k3n' } },
    ]);
  });

  it('takes the token out of the address bar once read', async () => {
    verifyApi(() => new Promise(() => {}));
    openLink('/verify-email/?token=t0k3n');
    await vi.waitFor(() => expect(window.location.pathname + window.location.search).toBe('/verify-email/'));
  });

  it('says when a link expired or was used, and offers to sign in for a new one', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    verifyApi(() => jsonResponse(422, { error: { code: 'unprocessable', message: expired } }));
    openLink('/verify-email/?token=used');
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe(expired));
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in/');
    expect(address()).toBe('/verify-email/?token=used');
  });

  it('says a link without its token is not complete, and sends nothing', async () => {
    const api = verifyApi(() => jsonResponse(200, signedIn));
    openLink('/verify-email/');
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^This link is not complete\./));
    expect(api.routes()).not.toContain('POST /api/auth/verify');
  });
});

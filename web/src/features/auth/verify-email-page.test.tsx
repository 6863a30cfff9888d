import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AccountData } from '../../generated/AccountData';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { amaraData, amaraUserDataAnswer, signedIn, signedOut } from '../../test/auth-fixtures';
import { address } from '../../test/memory-router';
import { renderThenAccount } from '../../test/render-with-auth';
import { VerifyEmailPage } from './verify-email-page';

const page = { heading: 'Confirm your email address' };
const noBookings: AccountData = { user: amaraData, enrollments: [], payments: [], onlineCourses: [] };
const expired = 'This link has expired or was already used. Sign in and ask for a new one in your account.';
const notTheirs = 'That is not the password you chose when you signed up. If you did not sign up, ignore this link.';
const password = () => screen.getByLabelText<HTMLInputElement>(/Password/);
const confirm = () => userEvent.click(screen.getByRole('button', { name: 'Confirm my email' }));

function verifyApi(verify: Answer) {
  let verified = false;
  return stubApi({
    ...amaraUserDataAnswer,
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
function openLink(path: string) {
  window.history.replaceState(null, '', path);
  renderThenAccount(<VerifyEmailPage page={page} />, path);
}

describe('VerifyEmailPage', () => {
  it('asks for the password chosen at sign-up before sending anything', async () => {
    const api = verifyApi(() => jsonResponse(200, signedIn));
    openLink('/verify-email/?token=t0k3n');
    expect(screen.getByRole('heading', { level: 1, name: 'Confirm your email address' })).toBeInTheDocument();
    expect(screen.getByText('To confirm your email address, enter the password you chose when you signed up.')).toBeInTheDocument();
    expect(password().type).toBe('password');
    expect(password().autocomplete).toBe('current-password');
    await confirm();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(document.activeElement).toBe(password());
    expect(api.routes()).not.toContain('POST /api/auth/verify');
  });

  it('sends the link’s token with the password, and the account then says the email is confirmed', async () => {
    const api = verifyApi(() => jsonResponse(200, signedIn));
    openLink('/verify-email/?token=t0k3n');
    await vi.waitFor(() => expect(window.location.pathname + window.location.search).toBe('/verify-email/'));
    await userEvent.type(password(), 'correct horse battery');
    await confirm();
    expect(await screen.findByText('Your email address is confirmed, and you are signed in.')).toBeInTheDocument();
    expect(address()).toBe('/account/');
    expect(await screen.findByText('amara@example.com')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.route === 'POST /api/auth/verify')).toEqual([
      { route: 'POST /api/auth/verify', body: { token: 't0k3n', password: 'correct horse battery' } },
    ]);
  });

  it('says when the password is not the one chosen, and lets them try again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    verifyApi(() => jsonResponse(401, { error: { code: 'unauthorized', message: notTheirs } }));
    openLink('/verify-email/?token=t0k3n');
    await userEvent.type(password(), 'a guess');
    await confirm();
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe(notTheirs));
    expect(screen.getByRole('button', { name: 'Confirm my email' })).toBeInTheDocument();
  });

  it('says when a link expired or was used, and offers to sign in for a new one', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    verifyApi(() => jsonResponse(422, { error: { code: 'unprocessable', message: expired } }));
    openLink('/verify-email/?token=used');
    await userEvent.type(password(), 'correct horse battery');
    await confirm();
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

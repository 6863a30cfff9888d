import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { amaraUserDataAnswer, signedIn, signedOut } from '../../test/auth-fixtures';
import { address } from '../../test/memory-router';
import { renderWithAuth } from '../../test/render-with-auth';
import { SignInPage } from './sign-in-page';

const page = { heading: 'Sign in' };

function signInApi(signIn: Answer) {
  let signedInNow = false;
  return stubApi({
    ...amaraUserDataAnswer,
    'GET /api/auth/session': () => jsonResponse(200, signedInNow ? signedIn : signedOut),
    'POST /api/auth/sign-in': async (body) => {
      const answer = await signIn(body);
      signedInNow = answer.ok;
      return answer;
    },
  });
}

async function signInAs(email: string, password: string) {
  await userEvent.type(screen.getByLabelText(/Email/), email);
  await userEvent.type(screen.getByLabelText(/Password/), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('SignInPage', () => {
  it('asks for the email and password beside the fields and sends nothing', async () => {
    const api = signInApi(() => jsonResponse(200, signedIn));
    renderWithAuth(<SignInPage page={page} />, '/sign-in/');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const email = screen.getByLabelText(/Email/);
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toBe('Email is required');
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(document.activeElement).toBe(email);
    expect(api.routes()).not.toContain('POST /api/auth/sign-in');
  });

  it('signs in and goes to the account', async () => {
    const api = signInApi(() => jsonResponse(200, signedIn));
    renderWithAuth(<SignInPage page={page} />, '/sign-in/');
    await signInAs(' amara@example.com ', 'correct horse battery');
    await vi.waitFor(() => expect(address()).toBe('/account/'));
    expect(api.calls[1]!.body).toEqual({ username: 'amara@example.com', password: 'correct horse battery' });
  });

  it('goes back to a same-site `next` path, never to another site', async () => {
    signInApi(() => jsonResponse(200, signedIn));
    renderWithAuth(<SignInPage page={page} />, '/sign-in/?next=/checkout/');
    await signInAs('amara@example.com', 'correct horse battery');
    await vi.waitFor(() => expect(address()).toBe('/checkout/'));
  });

  it('ignores a `next` that leaves the site', async () => {
    signInApi(() => jsonResponse(200, signedIn));
    renderWithAuth(<SignInPage page={page} />, '/sign-in/?next=//evil.example/');
    await signInAs('amara@example.com', 'correct horse battery');
    await vi.waitFor(() => expect(address()).toBe('/account/'));
  });

  it('shows the server’s message when the email or password is wrong, and keeps the email', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    signInApi(() => jsonResponse(401, { error: { code: 'unauthorized', message: 'Email or password is incorrect.' } }));
    renderWithAuth(<SignInPage page={page} />, '/sign-in/');
    await signInAs('amara@example.com', 'wrong password');
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Email or password is incorrect.'));
    expect(address()).toBe('/sign-in/');
    expect((screen.getByLabelText<HTMLInputElement>(/Email/)).value).toBe('amara@example.com');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows the throttling message after too many attempts', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const throttled = 'Too many attempts. Please wait 15 minutes, or reset your password.';
    signInApi(() => jsonResponse(429, { error: { code: 'too_many_requests', message: throttled } }));
    renderWithAuth(<SignInPage page={page} />, '/sign-in/');
    await signInAs('amara@example.com', 'wrong password');
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe(throttled));
  });

  it('links to the sign-up page and to the forgotten password page', () => {
    signInApi(() => jsonResponse(200, signedIn));
    renderWithAuth(<SignInPage page={page} />, '/sign-in/');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/sign-up/');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/forgot-password/');
  });
});

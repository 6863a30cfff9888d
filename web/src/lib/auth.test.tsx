import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { TRACK_EVENT } from './tracking';
import { jsonResponse, stubApi } from '../test/api-stub';
import { amara, amaraUserDataAnswer, signedIn, signedOut, unconfirmed } from '../test/auth-fixtures';
import { address } from '../test/memory-router';
import { renderWithAuth } from '../test/render-with-auth';
import { useAuth } from './auth';

/** Shows the context's state and offers its actions as buttons. */
function AuthProbe() {
  const auth = useAuth();
  const [outcome, setOutcome] = useState('');
  const run = (action: () => Promise<unknown>) => () => {
    action().then((result) => setOutcome(JSON.stringify(result ?? 'done')), (error: unknown) => {
      setOutcome(error instanceof ApiError ? `${error.status} ${error.message} ${JSON.stringify(error.fields)}` : String(error));
    });
  };
  return (
    <>
      <p data-testid="state">
        {JSON.stringify({ loading: auth.loading, user: auth.user?.email ?? null, claims: auth.claims !== null, userData: auth.userData?.stripe_id ?? null })}
      </p>
      <p data-testid="outcome">{outcome}</p>
      <button type="button" onClick={run(() => auth.signIn('amara@example.com', 'correct horse battery'))}>Sign in</button>
      <button
        type="button"
        onClick={run(() => auth.signUp({ email: 'amara@example.com', password: 'correct horse battery', first_name: 'Amara', last_name: 'Okafor', phone: '07700 900123' }))}
      >
        Sign up
      </button>
      <button type="button" onClick={run(() => auth.verifyEmail('link-token', 'correct horse battery'))}>Verify</button>
      <button type="button" onClick={run(() => auth.requestPasswordReset('amara@example.com'))}>Forgot</button>
      <button type="button" onClick={run(() => auth.resetPassword('link-token', 'a new pass phrase'))}>Reset</button>
      <button type="button" onClick={run(auth.signOut)}>Sign out</button>
    </>
  );
}

const state = () => JSON.parse(screen.getByTestId('state').textContent) as Record<string, unknown>;
const outcome = () => screen.getByTestId('outcome').textContent;
const session = (answer: unknown) => () => jsonResponse(200, answer);

function tracked() {
  const events: unknown[] = [];
  const listener = (event: Event) => events.push((event as CustomEvent<Record<string, unknown>>).detail);
  window.addEventListener(TRACK_EVENT, listener);
  return { events, stop: () => window.removeEventListener(TRACK_EVENT, listener) };
}

describe('AuthProvider', () => {
  it('starts loading with no user, claims or user data, then takes them from the session', async () => {
    let answer: (response: Response) => void = () => {};
    const api = stubApi({ 'GET /api/auth/session': () => new Promise((resolve) => (answer = resolve)), ...amaraUserDataAnswer });
    renderWithAuth(<AuthProbe />, '/account/');
    expect(state()).toEqual({ loading: true, user: null, claims: false, userData: null });
    await act(async () => answer(jsonResponse(200, signedIn)));
    await vi.waitFor(() => expect(state()).toEqual({ loading: false, user: 'amara@example.com', claims: true, userData: 'cus_amara' }));
    // The user record is the first of the GraphQL user list by sign-in id.
    expect(api.routes()).toEqual(['GET /api/auth/session', 'POST /api/graphql']);
    const { query, variables } = api.calls[1]?.body as { query: string; variables: unknown };
    expect(query).toContain('user(cognito_id: $id)');
    expect(variables).toEqual({ id: amara.sub });
  });

  it('ends loading signed out, and reports it, when the session cannot be read', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({ 'GET /api/auth/session': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderWithAuth(<AuthProbe />);
    await vi.waitFor(() => expect(state()).toEqual({ loading: false, user: null, claims: false, userData: null }));
    expect(warn).toHaveBeenCalledWith('Reported error', expect.any(TypeError), { action: 'load the session' });
  });

  it('signs in with the email as username, refetches the session and identifies the user', async () => {
    let signedInNow = false;
    const api = stubApi({
      'GET /api/auth/session': () => jsonResponse(200, signedInNow ? signedIn : signedOut),
      'POST /api/auth/sign-in': () => {
        signedInNow = true;
        return jsonResponse(200, signedIn);
      },
      ...amaraUserDataAnswer,
    });
    renderWithAuth(<AuthProbe />);
    await vi.waitFor(() => expect(state().loading).toBe(false));
    const tracking = tracked();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(outcome()).toBe('{"signedIn":true}'));
    tracking.stop();
    await vi.waitFor(() => expect(state()).toMatchObject({ user: 'amara@example.com', userData: 'cus_amara' }));
    expect(api.routes()).toEqual(['GET /api/auth/session', 'POST /api/auth/sign-in', 'GET /api/auth/session', 'POST /api/graphql']);
    expect(api.calls[1]?.body).toEqual({ username: 'amara@example.com', password: 'correct horse battery' });
    expect(tracking.events).toEqual([{ name: 'identify', params: { user_id: amara.sub, email: amara.email } }]);
  });

  it('reports a failed sign-in and answers false with the server’s message', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({
      'GET /api/auth/session': session(signedOut),
      'POST /api/auth/sign-in': () =>
        jsonResponse(401, { error: { code: 'unauthorized', message: 'Email or password is incorrect.' } }),
    });
    renderWithAuth(<AuthProbe />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(outcome()).toBe('{"signedIn":false,"message":"Email or password is incorrect."}'));
    expect(state()).toMatchObject({ loading: false, user: null });
    expect(warn).toHaveBeenCalledWith('Reported error', expect.any(ApiError), { action: 'sign in' });
  });

  it('says when sign-in cannot reach the server', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({
      'GET /api/auth/session': session(signedOut),
      'POST /api/auth/sign-in': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderWithAuth(<AuthProbe />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(JSON.parse(outcome())).toEqual({
      signedIn: false, message: 'We could not reach the server. Please check your connection and try again.',
    }));
  });

  it('does not let a slow first session answer undo a sign-in', async () => {
    let answerFirst: (response: Response) => void = () => {};
    let sessionCalls = 0;
    stubApi({
      'GET /api/auth/session': () =>
        sessionCalls++ === 0 ? new Promise((resolve) => (answerFirst = resolve)) : jsonResponse(200, signedIn),
      'POST /api/auth/sign-in': session(signedIn),
    });
    renderWithAuth(<AuthProbe />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(state().user).toBe('amara@example.com'));
    await act(async () => answerFirst(jsonResponse(200, signedOut)));
    expect(state().user).toBe('amara@example.com');
  });

  it('signs up and is signed in at once: the current user is read again (§4)', async () => {
    let created = false;
    const api = stubApi({
      'GET /api/auth/session': () => jsonResponse(200, created ? unconfirmed : signedOut),
      'POST /api/auth/sign-up': () => {
        created = true;
        return jsonResponse(201, unconfirmed);
      },
      ...amaraUserDataAnswer,
    });
    renderWithAuth(<AuthProbe />);
    await vi.waitFor(() => expect(state().loading).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await vi.waitFor(() => expect(outcome()).toBe('"signedIn"'));
    await vi.waitFor(() => expect(state()).toMatchObject({ user: 'amara@example.com', claims: true }));
    expect(api.routes().slice(0, 3)).toEqual(['GET /api/auth/session', 'POST /api/auth/sign-up', 'GET /api/auth/session']);
  });

  it('signs nobody in when the email has an account: its owner is mailed a link', async () => {
    const api = stubApi({
      'GET /api/auth/session': session(signedOut),
      'POST /api/auth/sign-up': () => jsonResponse(202, { sent: true }),
    });
    renderWithAuth(<AuthProbe />);
    await vi.waitFor(() => expect(state().loading).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await vi.waitFor(() => expect(outcome()).toBe('"mailed"'));
    expect(state()).toMatchObject({ user: null, claims: false });
    expect(api.calls).toEqual([
      { route: 'GET /api/auth/session', body: undefined },
      {
        route: 'POST /api/auth/sign-up',
        body: { email: 'amara@example.com', password: 'correct horse battery', first_name: 'Amara', last_name: 'Okafor', phone: '07700 900123' },
      },
    ]);
  });

  it('confirms the email with the link’s token, then has the user signed in and identified', async () => {
    let verified = false;
    const api = stubApi({
      'GET /api/auth/session': () => jsonResponse(200, verified ? signedIn : signedOut),
      'POST /api/auth/verify': () => {
        verified = true;
        return jsonResponse(200, signedIn);
      },
      ...amaraUserDataAnswer,
    });
    renderWithAuth(<AuthProbe />);
    await vi.waitFor(() => expect(state().loading).toBe(false));
    const tracking = tracked();
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(outcome()).toBe('"done"'));
    tracking.stop();
    expect(state()).toMatchObject({ user: 'amara@example.com', claims: true });
    expect(api.calls.slice(1, 3)).toEqual([
      { route: 'POST /api/auth/verify', body: { token: 'link-token', password: 'correct horse battery' } },
      { route: 'GET /api/auth/session', body: undefined },
    ]);
    expect(tracking.events).toEqual([{ name: 'identify', params: { user_id: amara.sub, email: amara.email } }]);
  });

  it('throws a refused link on with the server’s message, and stays signed out', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const expired = 'This link has expired or was already used. Sign in and ask for a new one in your account.';
    stubApi({
      'GET /api/auth/session': session(signedOut),
      'POST /api/auth/verify': () => jsonResponse(422, { error: { code: 'unprocessable', message: expired } }),
    });
    renderWithAuth(<AuthProbe />);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(outcome()).toBe(`422 ${expired} {}`));
    expect(state().user).toBeNull();
    expect(warn).toHaveBeenCalledWith('Reported error', expect.any(ApiError), { action: 'confirm the email address' });
  });

  it('asks for a password link without touching the session', async () => {
    const api = stubApi({
      'GET /api/auth/session': session(signedOut),
      'POST /api/auth/password-reset': () => jsonResponse(202, { sent: true }),
    });
    renderWithAuth(<AuthProbe />);
    await vi.waitFor(() => expect(state().loading).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Forgot' }));
    await vi.waitFor(() => expect(outcome()).toBe('"done"'));
    expect(api.calls.slice(1)).toEqual([{ route: 'POST /api/auth/password-reset', body: { email: 'amara@example.com' } }]);
  });

  it('sets a new password with the link’s token, then has the user signed in', async () => {
    let reset = false;
    const api = stubApi({
      'GET /api/auth/session': () => jsonResponse(200, reset ? signedIn : signedOut),
      'POST /api/auth/password-reset/confirm': () => {
        reset = true;
        return jsonResponse(200, signedIn);
      },
      ...amaraUserDataAnswer,
    });
    renderWithAuth(<AuthProbe />);
    await vi.waitFor(() => expect(state().loading).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await vi.waitFor(() => expect(outcome()).toBe('"done"'));
    expect(state().user).toBe('amara@example.com');
    expect(api.calls.slice(1, 3)).toEqual([
      { route: 'POST /api/auth/password-reset/confirm', body: { token: 'link-token', password: 'a new pass phrase' } },
      { route: 'GET /api/auth/session', body: undefined },
    ]);
  });

  it('says when an account request cannot reach the server', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({
      'GET /api/auth/session': session(signedOut),
      'POST /api/auth/password-reset/confirm': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderWithAuth(<AuthProbe />);
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await vi.waitFor(() => expect(outcome()).toBe('Error: We could not reach the server. Please check your connection and try again.'));
  });

  it('reports a refused sign-up and throws it on with the server’s message and fields', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({
      'GET /api/auth/session': session(signedOut),
      'POST /api/auth/sign-up': () => jsonResponse(422, {
        error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { password: 'Use at least 10 characters' } },
      }),
    });
    renderWithAuth(<AuthProbe />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await vi.waitFor(() =>
      expect(outcome()).toBe('422 Please check the highlighted fields. {"password":"Use at least 10 characters"}'),
    );
    expect(warn).toHaveBeenCalledWith('Reported error', expect.any(ApiError), { action: 'sign up' });
  });

  it('signs out: clears everything and goes to the home page', async () => {
    const api = stubApi({ 'GET /api/auth/session': session(signedIn), 'POST /api/auth/sign-out': session(signedOut), ...amaraUserDataAnswer });
    renderWithAuth(<AuthProbe />, '/account/');
    await vi.waitFor(() => expect(state()).toMatchObject({ user: 'amara@example.com', userData: 'cus_amara' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await vi.waitFor(() => expect(address()).toBe('/'));
    expect(state()).toEqual({ loading: false, user: null, claims: false, userData: null });
    expect(api.calls[2]).toEqual({ route: 'POST /api/auth/sign-out', body: {} });
  });

  it('reports a failed sign-out and stays signed in where it is', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({ 'GET /api/auth/session': session(signedIn), 'POST /api/auth/sign-out': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderWithAuth(<AuthProbe />, '/account/');
    await vi.waitFor(() => expect(state().user).toBe('amara@example.com'));
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await vi.waitFor(() => expect(outcome()).toBe('false'));
    expect(address()).toBe('/account/');
    expect(state().user).toBe('amara@example.com');
    expect(warn).toHaveBeenCalledWith('Reported error', expect.any(TypeError), { action: 'sign out' });
  });
});

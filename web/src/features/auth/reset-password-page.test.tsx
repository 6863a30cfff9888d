import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AccountData } from '../../generated/AccountData';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { amaraData, amaraUserDataAnswer, signedIn, signedOut } from '../../test/auth-fixtures';
import { address } from '../../test/memory-router';
import { renderThenAccount } from '../../test/render-with-auth';
import { ResetPasswordPage } from './reset-password-page';

const page = { heading: 'Choose a new password' };
const noBookings: AccountData = { user: amaraData, enrollments: [], payments: [], onlineCourses: [] };
const password = () => screen.getByLabelText<HTMLInputElement>(/New password/);
const save = () => userEvent.click(screen.getByRole('button', { name: 'Save password' }));

function resetApi(confirm: Answer) {
  let reset = false;
  return stubApi({
    ...amaraUserDataAnswer,
    'GET /api/auth/session': () => jsonResponse(200, reset ? signedIn : signedOut),
    'POST /api/auth/password-reset/confirm': async (body) => {
      const answer = await confirm(body);
      reset = answer.ok;
      return answer;
    },
    'GET /api/account': () => jsonResponse(200, noBookings),
  });
}

function openLink(path: string) {
  window.history.replaceState(null, '', path);
  renderThenAccount(<ResetPasswordPage page={page} />, path);
}

describe('ResetPasswordPage', () => {
  it('asks for a password of at least 10 characters before sending', async () => {
    const api = resetApi(() => jsonResponse(200, signedIn));
    openLink('/reset-password/?token=r3set');
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
    expect(password().type).toBe('password');
    expect(password().autocomplete).toBe('new-password');
    expect(document.getElementById(password().getAttribute('aria-describedby')!)!.textContent).toBe('At least 10 characters');
    await save();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(document.activeElement).toBe(password());
    await userEvent.type(password(), 'too short');
    await save();
    expect(screen.getByText('Use at least 10 characters')).toBeInTheDocument();
    expect(api.routes()).not.toContain('POST /api/auth/password-reset/confirm');
  });

  it('saves the new password with the link’s token, and the account then says so and shows the user', async () => {
    const api = resetApi(() => jsonResponse(200, signedIn));
    openLink('/reset-password/?token=r3set');
    await vi.waitFor(() => expect(window.location.search).toBe(''));
    await userEvent.type(password(), 'a new pass phrase');
    await save();
    expect(await screen.findByText('Your new password is saved, and you are signed in.')).toBeInTheDocument();
    expect(address()).toBe('/account/');
    expect(await screen.findByText('amara@example.com')).toBeInTheDocument();
    expect(api.calls.find((call) => call.route === 'POST /api/auth/password-reset/confirm')!.body).toEqual({
      token: 'r3set', password: 'a new pass phrase',
    });
  });

  it('says when the link expired or was used, and links to ask for a new one', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const expired = 'This link has expired or was already used. Please ask for a new one.';
    resetApi(() => jsonResponse(422, { error: { code: 'unprocessable', message: expired } }));
    openLink('/reset-password/?token=old');
    await userEvent.type(password(), 'a new pass phrase');
    await save();
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe(expired));
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password/');
    expect(password().value).toBe('a new pass phrase');
    expect(address()).toBe('/reset-password/?token=old');
  });

  it('puts the server’s password message beside the field', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    resetApi(() => jsonResponse(422, {
      error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { password: 'Use at least 10 characters' } },
    }));
    openLink('/reset-password/?token=r3set');
    await userEvent.type(password(), '🔑'.repeat(10));
    await save();
    expect(await screen.findByText('Use at least 10 characters')).toBeInTheDocument();
    expect(password().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(password());
  });

  it('says a link without its token is not complete, with no form to fill', async () => {
    resetApi(() => jsonResponse(200, signedIn));
    openLink('/reset-password/');
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^This link is not complete\./));
    expect(screen.queryByLabelText(/New password/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password/');
  });
});

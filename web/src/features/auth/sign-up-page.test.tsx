import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { signedIn, signedOut } from '../../test/auth-fixtures';
import { address, renderWithAuth } from '../../test/render-with-auth';
import { SignUpPage } from './sign-up-page';

const page = { heading: 'Create your account' };
const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

function signUpApi(signUp: Answer) {
  let signedUp = false;
  return stubApi({
    'GET /api/auth/session': () => jsonResponse(200, signedUp ? signedIn : signedOut),
    'POST /api/auth/sign-up': async (body) => {
      const answer = await signUp(body);
      signedUp = answer.ok;
      return answer;
    },
  });
}

async function fill(password = 'correct horse battery') {
  await userEvent.type(field(/Email/), 'amara@example.com');
  await userEvent.type(field(/Password/), password);
  await userEvent.type(field(/First name/), 'Amara');
  await userEvent.type(field(/Last name/), 'Okafor');
  await userEvent.type(field(/Phone number/), '07700 900123');
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Create account' }));

describe('SignUpPage', () => {
  it('requires every field, each message beside its field, and sends nothing', async () => {
    const api = signUpApi(() => jsonResponse(201, signedIn));
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    expect(screen.getByRole('heading', { level: 1, name: 'Create your account' })).toBeTruthy();
    await submit();
    for (const [label, message] of [
      [/Email/, 'Email is required'],
      [/Password/, 'Password is required'],
      [/First name/, 'First name is required'],
      [/Last name/, 'Last name is required'],
      [/Phone number/, 'Phone number is required'],
    ] as const) {
      expect(field(label).getAttribute('aria-invalid')).toBe('true');
      expect(field(label).getAttribute('aria-describedby')).toContain(`${field(label).id}-error`);
      expect(document.getElementById(`${field(label).id}-error`)!.textContent).toBe(message);
    }
    expect(document.activeElement).toBe(field(/Email/));
    expect(api.routes()).not.toContain('POST /api/auth/sign-up');
  });

  it('says a password needs at least 10 characters, before and after trying', async () => {
    signUpApi(() => jsonResponse(201, signedIn));
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    const password = field(/Password/);
    expect(document.getElementById(password.getAttribute('aria-describedby')!)!.textContent).toBe('At least 10 characters');
    expect(password.type).toBe('password');
    await fill('too short');
    await submit();
    expect(screen.getByText('Use at least 10 characters')).toBeTruthy();
    expect(password.value).toBe('too short');
  });

  it('creates the account, signs in and goes to the account', async () => {
    const api = signUpApi(() => jsonResponse(201, signedIn));
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    await fill();
    await submit();
    await vi.waitFor(() => expect(address()).toBe('/account/'));
    expect(api.calls[1]).toEqual({
      route: 'POST /api/auth/sign-up',
      body: { email: 'amara@example.com', password: 'correct horse battery', first_name: 'Amara', last_name: 'Okafor', phone: '07700 900123' },
    });
    expect(api.routes()[2]).toBe('GET /api/auth/session');
  });

  it('puts the server’s field messages beside the fields and keeps what was typed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    signUpApi(() => jsonResponse(422, {
      error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { email: 'Enter a valid email address' } },
    }));
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    await fill();
    await submit();
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    expect(document.activeElement).toBe(field(/Email/));
    expect(field(/Email/).value).toBe('amara@example.com');
    expect(field(/Password/).value).toBe('correct horse battery');
    expect(field(/Phone number/).value).toBe('07700 900123');
    expect(address()).toBe('/sign-up/');
  });

  it('shows in the error line that the email already has an account', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const exists = 'An account with this email already exists. Sign in, or reset your password if you have booked with us before.';
    signUpApi(() => jsonResponse(409, { error: { code: 'conflict', message: exists } }));
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    await fill();
    await submit();
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe(exists));
    expect(field(/First name/).value).toBe('Amara');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeTruthy();
  });

  it('links to the sign-in page', () => {
    signUpApi(() => jsonResponse(201, signedIn));
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in/');
  });
});

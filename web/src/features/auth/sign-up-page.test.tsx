import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, SLOW_DOWN, stubApi, tooManyRequests, type Answer } from '../../test/api-stub';
import type { AccountData } from '../../generated/AccountData';
import { amaraData, amaraUserDataAnswer, signedOut, unconfirmed } from '../../test/auth-fixtures';
import { address } from '../../test/memory-router';
import { renderThenAccount, renderWithAuth } from '../../test/render-with-auth';
import { trackedEvents } from '../../test/tracked-events';
import { SignUpPage } from './sign-up-page';

const page = { heading: 'Create your account' };
const field = (label: RegExp) => screen.getByLabelText<HTMLInputElement>(label);

const sent = () => jsonResponse(202, { sent: true });
const noBookings: AccountData = { user: amaraData, enrollments: [], payments: [], onlineCourses: [] };

function signUpApi(signUp: Answer) {
  return stubApi({ 'GET /api/auth/session': () => jsonResponse(200, signedOut), 'POST /api/auth/sign-up': signUp });
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
    const api = signUpApi(sent);
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    expect(screen.getByRole('heading', { level: 1, name: 'Create your account' })).toBeInTheDocument();
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
    signUpApi(sent);
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    const password = field(/Password/);
    expect(document.getElementById(password.getAttribute('aria-describedby')!)!.textContent).toBe('At least 10 characters');
    expect(password.type).toBe('password');
    await fill('too short');
    await submit();
    expect(screen.getByText('Use at least 10 characters')).toBeInTheDocument();
    expect(password.value).toBe('too short');
  });

  it('creates the account, signs in and lands on the account, which says a link is on its way to confirm the email', async () => {
    let created = false;
    const api = stubApi({
      'GET /api/auth/session': () => jsonResponse(200, created ? unconfirmed : signedOut),
      'POST /api/auth/sign-up': () => {
        created = true;
        return jsonResponse(201, unconfirmed);
      },
      'GET /api/account': () => jsonResponse(200, noBookings),
      ...amaraUserDataAnswer,
    });
    const tracked = trackedEvents();
    renderThenAccount(<SignUpPage page={page} />, '/sign-up/');
    await fill();
    await userEvent.clear(field(/Email/));
    await userEvent.type(field(/Email/), ' amara@example.com ');
    await submit();
    expect(
      await screen.findByText('Welcome: your account is ready. We have sent a link to amara@example.com: open it to confirm your email address.'),
    ).toBeInTheDocument();
    expect(address()).toBe('/account/');
    tracked.stop();
    expect(tracked.events).toEqual([
      { name: 'identify', params: { user_id: 'u-amara', email: 'amara@example.com' } },
      { name: 'conversion', params: { conversion_label: 'signup' } },
    ]);
    expect(api.calls.slice(0, 3)).toEqual([
      { route: 'GET /api/auth/session', body: undefined },
      {
        route: 'POST /api/auth/sign-up',
        body: { email: 'amara@example.com', password: 'correct horse battery', first_name: 'Amara', last_name: 'Okafor', phone: '07700 900123' },
      },
      { route: 'GET /api/auth/session', body: undefined },
    ]);
  });

  it('says an email with an account was mailed a link to choose a password, signing nobody in', async () => {
    signUpApi(sent);
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    await fill();
    await submit();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    await vi.waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.parentElement!.textContent).toContain(
      'There is already an account for amara@example.com. We have sent an email there with a link to choose a password, or you can sign in.',
    );
    expect(screen.getByRole('link', { name: 'sign in' }).getAttribute('href')).toBe('/sign-in/');
    expect(screen.queryByRole('form')).toBeNull();
    expect(address()).toBe('/sign-up/');
  });

  it('puts the server’s field messages beside the fields and keeps what was typed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    signUpApi(() => jsonResponse(422, {
      error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { email: 'Enter a valid email address' } },
    }));
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    await fill();
    await submit();
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(document.activeElement).toBe(field(/Email/));
    expect(field(/Email/).value).toBe('amara@example.com');
    expect(field(/Password/).value).toBe('correct horse battery');
    expect(field(/Phone number/).value).toBe('07700 900123');
    expect(address()).toBe('/sign-up/');
  });

  it('shows the server’s message when it asks to slow down, and keeps the form', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    signUpApi(tooManyRequests);
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    await fill();
    await submit();
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe(SLOW_DOWN));
    expect(field(/First name/).value).toBe('Amara');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeInTheDocument();
  });

  it('links to the sign-in page', () => {
    signUpApi(sent);
    renderWithAuth(<SignUpPage page={page} />, '/sign-up/');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in/');
  });
});

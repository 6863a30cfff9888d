import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, SLOW_DOWN, stubApi, tooManyRequests, type Answer } from '../../test/api-stub';
import { signedOut } from '../../test/auth-fixtures';
import { address } from '../../test/memory-router';
import { renderWithAuth } from '../../test/render-with-auth';
import { ForgotPasswordPage } from './forgot-password-page';

const page = { heading: 'Reset your password' };
const email = () => screen.getByLabelText<HTMLInputElement>(/Email/);
const send = () => userEvent.click(screen.getByRole('button', { name: 'Email me a link' }));

function resetApi(request: Answer) {
  return stubApi({ 'GET /api/auth/session': () => jsonResponse(200, signedOut), 'POST /api/auth/password-reset': request });
}

async function askFor(typed: string) {
  renderWithAuth(<ForgotPasswordPage page={page} />, '/forgot-password/');
  await userEvent.type(email(), typed);
  await send();
}

describe('ForgotPasswordPage', () => {
  it('asks for a valid email beside the field and sends nothing', async () => {
    const api = resetApi(() => jsonResponse(202, { sent: true }));
    renderWithAuth(<ForgotPasswordPage page={page} />, '/forgot-password/');
    expect(screen.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeInTheDocument();
    await send();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(document.activeElement).toBe(email());
    await userEvent.type(email(), 'amara@');
    await send();
    expect(screen.getByText('Enter a valid email address')).toBeInTheDocument();
    expect(api.routes()).not.toContain('POST /api/auth/password-reset');
  });

  // The answer and the page are the same whether or not the email has an account.
  it.each(['amara@example.com', 'nobody@example.com'])('sends %s and says a link is on its way if it has an account', async (who) => {
    const api = resetApi(() => jsonResponse(202, { sent: true }));
    await askFor(` ${who} `);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    await vi.waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.parentElement!.textContent).toContain(
      `If an account exists for ${who}, we have sent it a link to choose a new password. The link works for an hour.`,
    );
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/sign-in/');
    expect(address()).toBe('/forgot-password/');
    expect(api.calls[1]).toEqual({ route: 'POST /api/auth/password-reset', body: { email: who } });
  });

  it('shows the server’s message when it asks to slow down, and keeps the email', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    resetApi(tooManyRequests);
    await askFor('amara@example.com');
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe(SLOW_DOWN));
    expect(email().value).toBe('amara@example.com');
  });

  it('links back to sign in', () => {
    resetApi(() => jsonResponse(202, { sent: true }));
    renderWithAuth(<ForgotPasswordPage page={page} />, '/forgot-password/');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in/');
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CourseStartLink } from '../../generated/CourseStartLink';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { amaraUserDataAnswer, signedIn, signedOut } from '../../test/auth-fixtures';
import { address } from '../../test/memory-router';
import { renderWithAuth } from '../../test/render-with-auth';
import { StartCoursePage } from './start-course-page';

const page = { heading: 'Start your course' };
const link: CourseStartLink = {
  email: 'priya.shah@example.com', firstName: 'Priya', lastName: 'Shah', courseTitle: 'Level 3 Anatomy and Physiology for Aesthetics Online',
};
const field = (label: RegExp) => screen.getByLabelText<HTMLInputElement>(label);
const start = () => userEvent.click(screen.getByRole('button', { name: 'Start my course' }));

function startApi(check: Answer, started: Answer = () => jsonResponse(200, { courseUrl: '/learn/anatomy-and-physiology-online/' })) {
  let signedInNow = false;
  return stubApi({
    ...amaraUserDataAnswer,
    'GET /api/auth/session': () => jsonResponse(200, signedInNow ? signedIn : signedOut),
    'POST /api/auth/course-start/check': check,
    'POST /api/auth/course-start': async (body) => {
      const answer = await started(body);
      signedInNow = answer.ok;
      return answer;
    },
  });
}

function openLink(path: string) {
  window.history.replaceState(null, '', path);
  renderWithAuth(<StartCoursePage page={page} />, path);
}

describe('StartCoursePage', () => {
  it('says which course and address the link is for, with the names paid with ready to correct', async () => {
    const api = startApi(() => jsonResponse(200, link));
    openLink('/start-course/?token=st4rt');
    expect(await screen.findByText(/Your place on Level 3 Anatomy and Physiology for Aesthetics Online is ready/)).toBeInTheDocument();
    expect(screen.getByText(/Choose a password for priya.shah@example.com/)).toBeInTheDocument();
    expect(field(/First name/).value).toBe('Priya');
    expect(field(/Last name/).value).toBe('Shah');
    expect(field(/Password/).autocomplete).toBe('new-password');
    expect(window.location.search).toBe('');
    expect(api.calls.find((call) => call.route === 'POST /api/auth/course-start/check')!.body).toEqual({ token: 'st4rt' });
  });

  it('checks the names and password before sending, then signs in and opens the course', async () => {
    const api = startApi(() => jsonResponse(200, link));
    openLink('/start-course/?token=st4rt');
    await screen.findByText(/Your place on/);
    await userEvent.clear(field(/First name/));
    await start();
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(document.activeElement).toBe(field(/First name/));
    expect(api.routes()).not.toContain('POST /api/auth/course-start');
    await userEvent.type(field(/First name/), 'Priya');
    await userEvent.type(field(/Password/), 'correct horse battery');
    await start();
    await vi.waitFor(() => expect(address()).toBe('/learn/anatomy-and-physiology-online/'));
    expect(api.calls.find((call) => call.route === 'POST /api/auth/course-start')!.body).toEqual({
      token: 'st4rt', first_name: 'Priya', last_name: 'Shah', password: 'correct horse battery',
    });
  });

  it('says when the link was used or has expired, and how else to get in', async () => {
    startApi(() => jsonResponse(422, { error: { code: 'unprocessable', message: 'This link has expired or was already used.' } }));
    openLink('/start-course/?token=old');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired or was already used.');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in/');
    expect(screen.getByRole('link', { name: 'ask for a password link' }).getAttribute('href')).toBe('/forgot-password/');
    expect(screen.queryByRole('button', { name: 'Start my course' })).toBeNull();
  });

  it('says a link without its token is not complete', async () => {
    startApi(() => jsonResponse(200, link));
    openLink('/start-course/');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not complete.');
  });
});

import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../test/memory-router';
import { describe, expect, it } from 'vitest';
import type { AccountData } from '../../../generated/AccountData';
import type { AccountOnlineCourse } from '../../../generated/AccountOnlineCourse';
import { account } from '../../../test/account-fixtures';
import { OnlineCourses } from './online-courses';

const course = (title: string, change: Partial<AccountOnlineCourse>): AccountOnlineCourse => ({
  orderReference: 'E-1ABCD', courseId: title, title, complete: false, playerUrl: `/learn/${title}/`,
  access: { state: 'active', until: '2027-03-10' }, percent: 0, ...change,
});

function renderCourses(courses: AccountOnlineCourse[]) {
  const data: AccountData = { ...account, onlineCourses: courses };
  render(
    <MemoryRouter>
      <OnlineCourses data={data} />
    </MemoryRouter>,
  );
  return screen.getAllByRole('listitem');
}

describe('OnlineCourses', () => {
  it('links a course that may be studied to the player, with its last day and progress', () => {
    const [started, fresh] = renderCourses([
      course('lash-lift', { percent: 40 }),
      course('brows', { percent: 0 }),
    ]);
    expect(within(started!).getByText('Access until Wednesday 10 March 2027')).toBeInTheDocument();
    const bar = within(started!).getByRole('progressbar', { name: 'lash-lift: progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(within(started!).getByText('40% complete')).toBeInTheDocument();
    expect(within(started!).getByRole('link', { name: 'Continue: lash-lift' }).getAttribute('href')).toBe('/learn/lash-lift/');
    expect(within(fresh!).getByRole('link', { name: 'Start: brows' }).getAttribute('href')).toBe('/learn/brows/');
  });

  it('says when access ended or was withdrawn, with no way in', () => {
    const [expired, revoked, later] = renderCourses([
      course('skin', { access: { state: 'expired', ended: '2026-11-20' }, percent: 100, complete: true }),
      course('peels', { access: { state: 'revoked' } }),
      course('led', { access: { state: 'notStarted', opens: '2026-12-01' } }),
    ]);
    expect(within(expired!).getByText('Access ended on Friday 20 November 2026')).toBeInTheDocument();
    expect(within(expired!).getByRole('heading', { name: 'skin Completed' })).toBeInTheDocument();
    expect(within(revoked!).getByText('No longer available')).toBeInTheDocument();
    expect(within(later!).getByText('Opens on Tuesday 1 December 2026')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('says a course whose lessons are not published yet has no way in, and who to ask', () => {
    const [waiting] = renderCourses([course('microneedling', { playerUrl: null })]);
    expect(within(waiting!).getByText(/Its lessons are not published yet/)).toBeInTheDocument();
    expect(within(waiting!).queryByRole('link', { name: /^Start/ })).toBeNull();
    expect(within(waiting!).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact/');
  });
});

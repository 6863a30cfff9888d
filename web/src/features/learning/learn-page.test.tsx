import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../test/memory-router';
import { describe, expect, it } from 'vitest';
import type { LearnPage as LearnData } from '../../generated/LearnPage';
import { anatomy, learn, welcome } from '../../test/learning-fixtures';
import { LearnPage } from './learn-page';

function renderLearn(page: LearnData) {
  render(
    <MemoryRouter>
      <LearnPage page={page} />
    </MemoryRouter>,
  );
}

describe('LearnPage', () => {
  it('shows the course, its access, the progress bar and a Continue link to where the student left off', () => {
    renderLearn(learn);
    expect(screen.getByRole('heading', { level: 1, name: 'Lash Lift Online' })).toBeInTheDocument();
    expect(screen.getByText('Access until Wednesday 10 March 2027')).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: 'Your progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(bar.getAttribute('aria-valuetext')).toBe('40% complete');
    expect(screen.getByText('40% complete')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/learn/c-lash/lash-anatomy/');
    expect(screen.getByText('Next: Lash anatomy')).toBeInTheDocument();
  });

  it('lists the modules in order with each step linked, its reading time and its done mark', () => {
    renderLearn(learn);
    const modules = within(screen.getByRole('region', { name: 'Course contents' })).getAllByRole('heading', { level: 3 });
    expect(modules.map((heading) => heading.textContent)).toEqual(['Getting started', 'Aftercare']);
    expect(screen.getByText('1 of 2 lessons completed · quiz passed')).toBeInTheDocument();
    const first = screen.getByRole('link', { name: 'Welcome to the course' }).closest('li')!;
    expect(first.textContent).toBe('Welcome to the course4 min✓ completed');
    expect(screen.getByRole('link', { name: 'Lash anatomy' }).closest('li')!.textContent).toBe('Lash anatomy6 min');
    expect(screen.getByRole('link', { name: 'Module 1 quiz' }).closest('li')!.textContent).toBe('Module 1 quizQuiz✓ passed');
    const final = screen.getByRole('region', { name: 'Final assessment' });
    expect(within(final).getByRole('link', { name: 'Final assessment' }).getAttribute('href')).toBe('/learn/c-lash/final-assessment/');
  });

  it('offers to start a course not begun', () => {
    renderLearn({
      ...learn,
      progress: { ...learn.progress, percent: 0, modules: learn.progress.modules.map((module) => ({ ...module, status: 'notStarted' })) },
      resume: { ...welcome, done: false },
    });
    expect(screen.getByRole('link', { name: 'Start the course' }).getAttribute('href')).toBe('/learn/c-lash/welcome/');
    expect(screen.getByRole('progressbar', { name: 'Your progress' }).getAttribute('aria-valuenow')).toBe('0');
  });

  it('says a completed course is complete', () => {
    renderLearn({ ...learn, progress: { ...learn.progress, percent: 100, complete: true }, resume: anatomy, certificate: 'CA-2026-K7Q2M9XD' });
    expect(screen.getByText('You have completed this course. Well done!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download your certificate (PDF)' }).getAttribute('href')).toBe('/api/account/certificates/CA-2026-K7Q2M9XD');
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
    expect(screen.getByText('100% complete')).toBeInTheDocument();
  });
});

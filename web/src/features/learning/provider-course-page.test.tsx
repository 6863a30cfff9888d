import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProviderCoursePage as ProviderCourseData } from '../../generated/ProviderCoursePage';
import { course } from '../../test/learning-fixtures';
import { ProviderCoursePage } from './provider-course-page';

const hosted: ProviderCourseData = {
  course, access: { state: 'active', until: '2027-03-10' }, provider: 'Coassemble', openUrl: '/learn/c-lash/open', problem: null, certificate: null,
};

describe('ProviderCoursePage', () => {
  it('shows the course and its access, with a form that posts to the launch', () => {
    render(<ProviderCoursePage page={hosted} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Lash Lift Online' })).toBeInTheDocument();
    expect(screen.getByText('Access until Wednesday 10 March 2027')).toBeInTheDocument();
    const open = screen.getByRole('button', { name: 'Open your course' });
    const form = open.closest('form')!;
    expect([form.getAttribute('method'), form.getAttribute('action')]).toEqual(['post', '/learn/c-lash/open']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says what went wrong with the last launch, and the certificate once completed', () => {
    const problem = 'Coassemble could not open your course just now. Please try again in a few minutes; your progress is kept there.';
    render(<ProviderCoursePage page={{ ...hosted, problem, certificate: 'EA-2026-K7Q2M9XD' }} />);
    expect(screen.getByRole('alert').textContent).toBe(problem);
    expect(screen.getByText('You have completed this course. Well done!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download your certificate (PDF)' }).getAttribute('href')).toBe('/api/account/certificates/EA-2026-K7Q2M9XD');
    expect(screen.getByRole('button', { name: 'Open your course again' })).toBeInTheDocument();
  });
});

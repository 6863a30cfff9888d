import { render, screen } from '@testing-library/react';
import { MemoryRouter } from '../../test/memory-router';
import { describe, expect, it } from 'vitest';
import type { CourseClosedPage as ClosedData } from '../../generated/CourseClosedPage';
import { course } from '../../test/learning-fixtures';
import { CourseClosedPage } from './course-closed-page';

const ended: ClosedData = {
  course, access: { state: 'expired', ended: '2026-11-20' }, onSale: true,
  message: 'Your access to this course ended on Friday 20 November 2026. Please contact us if you would like more time.',
};

function renderClosed(page: ClosedData) {
  render(
    <MemoryRouter>
      <CourseClosedPage page={page} />
    </MemoryRouter>,
  );
}

describe('CourseClosedPage', () => {
  it('says access ended, and offers the course again while it is sold', () => {
    renderClosed(ended);
    expect(screen.getByRole('heading', { level: 1, name: 'Lash Lift Online' })).toBeInTheDocument();
    expect(screen.getByText(ended.message)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy Lash Lift Online again' }).getAttribute('href')).toBe(course.catalogueUrl);
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact/');
  });

  it('offers only to talk when the course is no longer sold', () => {
    renderClosed({ ...ended, access: { state: 'revoked' }, onSale: false });
    expect(screen.queryByRole('link', { name: /Buy/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Contact us' })).toBeInTheDocument();
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CourseReviews } from './course-reviews';

describe('a course’s reviews', () => {
  it('shows nothing while none is published', () => {
    const { container } = render(<CourseReviews reviews={{ average: null, count: 0, reviews: [] }} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the mean, the count and each published comment signed with a first name', () => {
    const review = { rating: 5, comment: 'Clear and friendly', author: 'Sam', date: '2026-11-27' };
    render(<CourseReviews reviews={{ average: 4.5, count: 2, reviews: [review, { ...review, rating: 4, author: 'Jo', comment: 'Good' }] }} />);
    expect(screen.getByRole('heading', { name: 'What students say' })).toBeInTheDocument();
    expect(screen.getByText('Rated 4.5 out of 5 from 2 reviews')).toBeInTheDocument();
    expect(screen.getByText('Clear and friendly')).toBeInTheDocument();
    expect(screen.getByText('Sam, trained 27 Nov 2026')).toBeInTheDocument();
  });
});

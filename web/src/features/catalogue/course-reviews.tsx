import type { CourseReviews as Reviews } from '../../generated/CourseReviews';
import { formatShortDate } from '../../lib/dates';

// What students said of a course, as staff published it with their consent
// (decision 034); nothing at all while none is published.

export function CourseReviews({ reviews }: { reviews: Reviews }) {
  if (reviews.average === null || reviews.reviews.length === 0) return null;
  const count = reviews.count === 1 ? '1 review' : `${reviews.count} reviews`;
  return (
    <section aria-labelledby="reviews-title" className="course-reviews">
      <h2 id="reviews-title">What students say</h2>
      <p className="reviews-summary">{`Rated ${reviews.average.toFixed(1)} out of 5 from ${count}`}</p>
      <ul className="reviews">
        {reviews.reviews.map((review, index) => (
          <li key={`${review.date}-${index}`} className="review">
            <p className="review-rating">{`${review.rating} out of 5`}</p>
            <blockquote>
              <p>{review.comment}</p>
            </blockquote>
            <p className="review-author">{`${review.author}, trained ${formatShortDate(review.date)}`}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

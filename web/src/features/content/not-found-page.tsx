import { Link } from '../../lib/router';
import type { NotFoundPage as NotFoundData } from '../../generated/NotFoundPage';
import { CourseGrid } from '../../components/course-card';

export function NotFoundPage({ page }: { page: NotFoundData }) {
  return (
    <div className="container">
      <h1>Page not found</h1>
      <p className="lead">Sorry, we could not find that page. It may have moved, or the address may be mistyped.</p>
      <p>
        <Link to="/courses/" className="button">Browse all courses</Link>{' '}
        <Link to="/contact/" className="button button-secondary">Contact us</Link>
      </p>
      {page.suggestions.length > 0 && (
        <section aria-labelledby="suggestions-title" className="band">
          <h2 id="suggestions-title">Popular courses</h2>
          <CourseGrid courses={page.suggestions} />
        </section>
      )}
    </div>
  );
}

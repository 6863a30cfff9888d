import { Link } from '../../lib/router';
import type { CourseClosedPage as ClosedData } from '../../generated/CourseClosedPage';

// A course's player pages once the student's access ended or was withdrawn
// (decision 025): what happened, the course again if it is still sold, and
// the college to ask.

export function CourseClosedPage({ page }: { page: ClosedData }) {
  return (
    <div className="container learn-page course-closed">
      <h1>{page.course.title}</h1>
      <p className="lead">{page.message}</p>
      <ul className="course-closed-next">
        {page.onSale && (
          <li>
            <Link to={page.course.catalogueUrl}>{`Buy ${page.course.title} again`}</Link>
          </li>
        )}
        <li>
          <Link to="/contact/">Contact us</Link>
        </li>
      </ul>
    </div>
  );
}

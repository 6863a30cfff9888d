import { Link } from '../../lib/router';
import type { CourseSectionPage as CourseSectionData } from '../../generated/CourseSectionPage';
import { CourseListing } from './course-filters';

export function CourseSectionPage({ page }: { page: CourseSectionData }) {
  return (
    <div className="container">
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <ol>
          <li><Link to="/">Home</Link></li>
          <li><Link to="/courses/">Courses</Link></li>
          <li aria-current="page">{page.heading}</li>
        </ol>
      </nav>
      <h1>{page.heading}</h1>
      <p className="lead">{page.intro}</p>
      <CourseListing path={`/courses/${page.slug}/`} sort={page.sort} courses={page.courses} />
    </div>
  );
}

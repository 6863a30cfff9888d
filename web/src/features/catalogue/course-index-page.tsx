import type { CourseIndexPage as CourseIndexData } from '../../generated/CourseIndexPage';
import { CourseListing } from './course-filters';
import { SectionCards } from './section-cards';

export function CourseIndexPage({ page, sort }: { page: CourseIndexData; sort: string }) {
  return (
    <div className="container">
      <h1>{page.heading}</h1>
      <p className="lead">{page.intro}</p>
      <section aria-labelledby="course-sections-title" className="band">
        <h2 id="course-sections-title">Course sections</h2>
        <SectionCards sections={page.sections} />
      </section>
      <section aria-label="All courses" className="band">
        <CourseListing path="/courses/" sort={sort} courses={page.courses} />
      </section>
    </div>
  );
}

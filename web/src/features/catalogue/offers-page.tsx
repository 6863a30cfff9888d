import type { OffersPage as OffersData } from '../../generated/OffersPage';
import { Prose } from '../../components/prose';
import { CourseGrid } from '../../components/course-card';

export function OffersPage({ page }: { page: OffersData }) {
  return (
    <div className="container">
      <h1>{page.heading}</h1>
      <Prose html={page.bodyHtml} />
      <section aria-labelledby="offers-title" className="band">
        <h2 id="offers-title">{`${page.courses.length} courses on offer`}</h2>
        <CourseGrid courses={page.courses} />
      </section>
    </div>
  );
}

import { CourseSectionPage } from '../../features/catalogue/course-section-page';
import type { RouteProps } from '../route-table';

export default function CourseSectionRoute({ page }: RouteProps<'courseSection'>) {
  return <CourseSectionPage page={page} />;
}

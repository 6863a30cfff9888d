import { CourseClosedPage } from '../../features/learning/course-closed-page';
import type { RouteProps } from '../route-table';

export default function CourseClosedRoute({ page }: RouteProps<'courseClosed'>) {
  return <CourseClosedPage page={page} />;
}

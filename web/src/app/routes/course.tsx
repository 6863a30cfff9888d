import { CoursePage } from '../../features/catalogue/course-page';
import type { RouteProps } from '../route-table';

export default function CourseRoute({ page }: RouteProps<'course'>) {
  return <CoursePage course={page} />;
}

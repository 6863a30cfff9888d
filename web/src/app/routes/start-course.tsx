import { StartCoursePage } from '../../features/auth/start-course-page';
import type { RouteProps } from '../route-table';

export default function StartCourseRoute({ page }: RouteProps<'startCourse'>) {
  return <StartCoursePage page={page} />;
}

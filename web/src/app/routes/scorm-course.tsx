import { ScormCoursePage } from '../../features/learning/scorm-course-page';
import type { RouteProps } from '../route-table';

export default function ScormCourseRoute({ page }: RouteProps<'scormCourse'>) {
  return <ScormCoursePage key={page.course.id} page={page} />;
}

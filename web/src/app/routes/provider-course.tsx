import { ProviderCoursePage } from '../../features/learning/provider-course-page';
import type { RouteProps } from '../route-table';

export default function ProviderCourseRoute({ page }: RouteProps<'providerCourse'>) {
  return <ProviderCoursePage key={page.course.id} page={page} />;
}

import { CourseIndexPage } from '../../features/catalogue/course-index-page';
import type { RouteProps } from '../route-table';

// QuickJS has no URLSearchParams; the server has already checked the value.
function sortOf(path: string): string {
  const match = /[?&]sort=([a-z-]+)/.exec(path);
  return match?.[1] ?? 'featured';
}

export default function CourseIndexRoute({ page, path }: RouteProps<'courseIndex'>) {
  return <CourseIndexPage page={page} sort={sortOf(path)} />;
}

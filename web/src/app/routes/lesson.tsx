import { LessonPage } from '../../features/learning/lesson-page';
import type { RouteProps } from '../route-table';

// Keyed by the lesson, so the next lesson starts with its own state.
export default function LessonRoute({ page }: RouteProps<'lesson'>) {
  return <LessonPage key={`${page.course.id}/${page.slug}`} page={page} />;
}

import { LearnPage } from '../../features/learning/learn-page';
import type { RouteProps } from '../route-table';

export default function LearnRoute({ page }: RouteProps<'learn'>) {
  return <LearnPage key={page.course.id} page={page} />;
}

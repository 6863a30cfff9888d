import { FeedbackPage } from '../../features/feedback/feedback-page';
import type { RouteProps } from '../route-table';

export default function FeedbackRoute({ page, path }: RouteProps<'feedback'>) {
  return <FeedbackPage key={path} page={page} path={path} />;
}

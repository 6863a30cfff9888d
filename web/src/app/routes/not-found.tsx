import { NotFoundPage } from '../../features/content/not-found-page';
import type { RouteProps } from '../route-table';

export default function NotFoundRoute({ page }: RouteProps<'notFound'>) {
  return <NotFoundPage page={page} />;
}

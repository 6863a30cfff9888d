import { PathwayPage } from '../../features/catalogue/pathway-page';
import type { RouteProps } from '../route-table';

export default function PathwayRoute({ page }: RouteProps<'pathway'>) {
  return <PathwayPage page={page} />;
}

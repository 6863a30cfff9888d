import { CareersPage } from '../../features/content/careers-page';
import type { RouteProps } from '../route-table';

export default function CareersRoute({ page }: RouteProps<'careers'>) {
  return <CareersPage page={page} />;
}

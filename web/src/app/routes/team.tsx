import { TeamPage } from '../../features/content/team-page';
import type { RouteProps } from '../route-table';

export default function TeamRoute({ page }: RouteProps<'team'>) {
  return <TeamPage page={page} />;
}

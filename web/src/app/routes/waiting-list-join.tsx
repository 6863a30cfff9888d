import { WaitingListJoinPage } from '../../features/catalogue/waiting-list-form';
import type { RouteProps } from '../route-table';

export default function WaitingListJoinRoute({ page, path }: RouteProps<'waitingListJoin'>) {
  return <WaitingListJoinPage key={path} page={page} />;
}

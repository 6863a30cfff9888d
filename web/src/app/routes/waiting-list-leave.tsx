import { WaitingListLeavePage } from '../../features/checkout/waiting-list-pages';
import type { RouteProps } from '../route-table';

export default function WaitingListLeaveRoute({ page, path }: RouteProps<'waitingListLeave'>) {
  return <WaitingListLeavePage key={path} page={page} path={path} />;
}

import { WaitingListClaimPage } from '../../features/checkout/waiting-list-pages';
import type { RouteProps } from '../route-table';

export default function WaitingListClaimRoute({ page, path }: RouteProps<'waitingListClaim'>) {
  return <WaitingListClaimPage key={path} page={page} path={path} />;
}

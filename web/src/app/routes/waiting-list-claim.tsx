import { WaitingListClaimPage } from '../../features/checkout/waiting-list-pages';
import { usePageData } from '../page-data';
import type { RouteProps } from '../route-table';

export default function WaitingListClaimRoute({ page, path }: RouteProps<'waitingListClaim'>) {
  const { now } = usePageData().envelope;
  return <WaitingListClaimPage key={path} page={page} path={path} now={now} />;
}

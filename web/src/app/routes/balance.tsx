import { BalancePage } from '../../features/checkout/balance-page';
import { usePageData } from '../page-data';
import type { RouteProps } from '../route-table';

export default function BalanceRoute({ page, path }: RouteProps<'balance'>) {
  const today = usePageData().envelope.now.slice(0, 10);
  return <BalancePage key={path} page={page} path={path} today={today} />;
}

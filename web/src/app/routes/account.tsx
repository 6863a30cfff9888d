import { AccountPage } from '../../features/account/account-page';
import { usePageData } from '../page-data';
import type { RouteProps } from '../route-table';

export default function AccountRoute({ page }: RouteProps<'account'>) {
  const { envelope } = usePageData();
  return <AccountPage page={page} venue={envelope.site?.address ?? ''} today={envelope.now.slice(0, 10)} />;
}

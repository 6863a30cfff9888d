import { AccountPage } from '../../features/account/account-page';
import type { RouteProps } from '../route-table';

export default function AccountRoute({ page }: RouteProps<'account'>) {
  return <AccountPage page={page} />;
}

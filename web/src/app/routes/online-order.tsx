import { OnlineOrderPage } from '../../features/online-checkout/online-order-page';
import type { RouteProps } from '../route-table';

export default function OnlineOrderRoute({ page }: RouteProps<'onlineOrder'>) {
  return <OnlineOrderPage key={page.orderId} page={page} />;
}

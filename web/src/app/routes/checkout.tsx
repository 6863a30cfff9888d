import { CheckoutPage } from '../../features/checkout/checkout-page';
import { usePageData } from '../page-data';
import type { RouteProps } from '../route-table';

export default function CheckoutRoute({ page }: RouteProps<'checkout'>) {
  const today = usePageData().envelope.now.slice(0, 10);
  return <CheckoutPage page={page} today={today} />;
}

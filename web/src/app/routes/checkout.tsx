import { CheckoutPage } from '../../features/checkout/checkout-page';
import type { RouteProps } from '../route-table';

export default function CheckoutRoute({ page }: RouteProps<'checkout'>) {
  return <CheckoutPage page={page} />;
}

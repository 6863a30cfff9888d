import { OffersPage } from '../../features/catalogue/offers-page';
import type { RouteProps } from '../route-table';

export default function OffersRoute({ page }: RouteProps<'offers'>) {
  return <OffersPage page={page} />;
}

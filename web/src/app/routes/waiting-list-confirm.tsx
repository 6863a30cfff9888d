import { WaitingListConfirmPage } from '../../features/checkout/waiting-list-pages';
import type { RouteProps } from '../route-table';

export default function WaitingListConfirmRoute({ page, path }: RouteProps<'waitingListConfirm'>) {
  return <WaitingListConfirmPage key={path} page={page} path={path} />;
}

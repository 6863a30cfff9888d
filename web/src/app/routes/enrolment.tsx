import { EnrolmentPage } from '../../features/checkout/enrolment-page';
import type { RouteProps } from '../route-table';

export default function EnrolmentRoute({ page }: RouteProps<'enrolment'>) {
  return <EnrolmentPage key={page.orderId} page={page} />;
}

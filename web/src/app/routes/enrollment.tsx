import { EnrollmentPage } from '../../features/checkout/enrollment-page';
import type { RouteProps } from '../route-table';

export default function EnrollmentRoute({ page }: RouteProps<'enrollment'>) {
  return <EnrollmentPage key={page.orderId} page={page} />;
}

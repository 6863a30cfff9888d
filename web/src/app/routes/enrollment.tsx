import { EnrollmentPage } from '../../features/checkout/enrollment-page';
import { usePageData } from '../page-data';
import type { RouteProps } from '../route-table';

export default function EnrollmentRoute({ page }: RouteProps<'enrollment'>) {
  const today = usePageData().envelope.now.slice(0, 10);
  return <EnrollmentPage key={page.orderId} page={page} today={today} />;
}

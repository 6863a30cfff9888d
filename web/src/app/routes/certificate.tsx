import { CertificateCheckPage } from '../../features/account/certificate-check-page';
import type { RouteProps } from '../route-table';

export default function CertificateRoute({ page }: RouteProps<'certificate'>) {
  return <CertificateCheckPage page={page} />;
}

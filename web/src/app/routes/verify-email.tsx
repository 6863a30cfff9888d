import { VerifyEmailPage } from '../../features/auth/verify-email-page';
import type { RouteProps } from '../route-table';

export default function VerifyEmailRoute({ page }: RouteProps<'verifyEmail'>) {
  return <VerifyEmailPage page={page} />;
}

import { ResetPasswordPage } from '../../features/auth/reset-password-page';
import type { RouteProps } from '../route-table';

export default function ResetPasswordRoute({ page }: RouteProps<'resetPassword'>) {
  return <ResetPasswordPage page={page} />;
}

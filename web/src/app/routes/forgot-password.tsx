import { ForgotPasswordPage } from '../../features/auth/forgot-password-page';
import type { RouteProps } from '../route-table';

export default function ForgotPasswordRoute({ page }: RouteProps<'forgotPassword'>) {
  return <ForgotPasswordPage page={page} />;
}

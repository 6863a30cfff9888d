import { SignUpPage } from '../../features/auth/sign-up-page';
import type { RouteProps } from '../route-table';

export default function SignUpRoute({ page }: RouteProps<'signUp'>) {
  return <SignUpPage page={page} />;
}

import { SignInPage } from '../../features/auth/sign-in-page';
import type { RouteProps } from '../route-table';

export default function SignInRoute({ page }: RouteProps<'signIn'>) {
  return <SignInPage page={page} />;
}

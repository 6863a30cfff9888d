import { HomePage } from '../../features/catalogue/home-page';
import type { RouteProps } from '../route-table';

export default function HomeRoute({ page }: RouteProps<'home'>) {
  return <HomePage page={page} />;
}

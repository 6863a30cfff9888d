import { CalendarPage } from '../../features/catalogue/calendar-page';
import type { RouteProps } from '../route-table';

export default function CalendarRoute({ page }: RouteProps<'calendar'>) {
  return <CalendarPage page={page} />;
}

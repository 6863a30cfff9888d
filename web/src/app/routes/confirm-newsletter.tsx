import { ConfirmNewsletterPage } from '../../features/newsletter/confirm-newsletter-page';
import type { RouteProps } from '../route-table';

export default function ConfirmNewsletterRoute({ page }: RouteProps<'confirmNewsletter'>) {
  return <ConfirmNewsletterPage page={page} />;
}

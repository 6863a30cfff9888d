import { ContentPage } from '../../features/content/content-page';
import { EnquiryForm } from '../../features/enquiries/enquiry-form';
import type { RouteProps } from '../route-table';

export default function ContentRoute({ page }: RouteProps<'content'>) {
  return <ContentPage page={page} form={page.form && <EnquiryForm kind={page.form} />} />;
}

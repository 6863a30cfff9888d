import type { ContentPage as ContentData } from '../../generated/ContentPage';
import { EnquiryForm } from '../enquiries/enquiry-form';
import { Prose } from './prose';

export function ContentPage({ page }: { page: ContentData }) {
  return (
    <div className={page.form ? 'container content-with-form' : 'container content-page'}>
      <div>
        <h1>{page.heading}</h1>
        <Prose html={page.bodyHtml} />
      </div>
      {page.form && <EnquiryForm kind={page.form} />}
    </div>
  );
}

import type { ReactNode } from 'react';
import { Prose } from '../../components/prose';
import type { ContentPage as ContentData } from '../../generated/ContentPage';

/** A page of the college's own words; `form` is the enquiry form it names, beside them (composed by the app). */
export function ContentPage({ page, form }: { page: ContentData; form: ReactNode }) {
  return (
    <div className={page.form ? 'container content-with-form' : 'container content-page'}>
      <div>
        <h1>{page.heading}</h1>
        <Prose html={page.bodyHtml} />
      </div>
      {form}
    </div>
  );
}

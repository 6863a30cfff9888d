import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { ChoiceField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RequestView, ResultCount } from '../../components/request-view';
import { useFilterForm } from '../../components/use-filter-form';
import type { Enquiry } from '../../lib/api-types';
import { choicesOf, ENQUIRY_KIND_LABELS, ENQUIRY_STATUS_LABELS } from '../../lib/labels';
import { useStaffNameChoices } from '../../lib/reference-data';
import { useAdminData } from '../../lib/use-admin-data';
import { useQueryFilters } from '../../lib/use-query-filters';
import { EnquiryCard } from './enquiry-card';

// The enquiries inbox (decision 017): what came in through the site's
// forms, filtered by status and kind, each with its owner and notes.

const FILTERS = ['status', 'kind'] as const;
const schema = z.object({ status: z.string(), kind: z.string() });

export function EnquiriesScreen() {
  const filters = useQueryFilters(FILTERS, '/api/admin/enquiries');
  const enquiries = useAdminData<{ enquiries: Enquiry[] }>(filters.path);
  const owners = useStaffNameChoices();
  const form = useFilterForm(filters, schema, { status: 'Status', kind: 'Kind' });
  return (
    <>
      <PageHeading>Enquiries</PageHeading>
      <AdminFormView form={form} submit="Show enquiries" className="filters">
        <ChoiceField form={form} name="status" choices={choicesOf(ENQUIRY_STATUS_LABELS)} none="Any status" />
        <ChoiceField form={form} name="kind" choices={choicesOf(ENQUIRY_KIND_LABELS)} none="Any kind" />
      </AdminFormView>
      <ResultCount count={enquiries.data?.enquiries.length} one="enquiry" many="enquiries" />
      <RequestView request={enquiries} what="the enquiries">
        {({ enquiries: found }) =>
          found.length === 0 ? (
            <p className="empty">No enquiries match these filters.</p>
          ) : (
            <ul className="enquiries">
              {found.map((enquiry) => (
                <EnquiryCard key={enquiry.id} enquiry={enquiry} owners={owners} reload={enquiries.retry} />
              ))}
            </ul>
          )
        }
      </RequestView>
    </>
  );
}

import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { AuditTable } from '../../components/audit-table';
import { TextField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useFilterForm } from '../../components/use-filter-form';
import { PlacePager } from '../../components/place-pager';
import { withQuery } from '../../lib/admin-api';
import type { AuditPage } from '../../lib/api-types';
import { useAdminData } from '../../lib/use-admin-data';
import { useQueryFilters } from '../../lib/use-query-filters';

// The audit log (decision 017): every staff change, newest first, 50 to a
// page, filtered by who, which record and when. "Older" follows the
// answer's `next`; the page is in the address like the filters.

const FILTERS = ['actor', 'entity', 'entityId', 'from', 'to'] as const;
const schema = z
  .object({ actor: z.string().trim(), entity: z.string().trim(), entityId: z.string().trim(), from: z.string(), to: z.string() })
  .refine(({ from, to }) => !from || !to || from <= to, { path: ['to'], error: 'Choose a date on or after the first date' });

export function AuditScreen() {
  const filters = useQueryFilters(FILTERS, '/api/admin/audit');
  const before = filters.params.get('before') ?? '';
  const page = useAdminData<AuditPage>(withQuery(filters.path, { before }));
  const form = useFilterForm(filters, schema, { actor: 'Who (their email)', entity: 'Kind of record', entityId: 'Record id', from: 'From', to: 'To' });
  return (
    <>
      <PageHeading>Audit log</PageHeading>
      <AdminFormView form={form} submit="Show entries" className="filters">
        <TextField form={form} name="actor" type="email" hint="Blank for anyone" />
        <TextField form={form} name="entity" hint="Like order, session, code" />
        <TextField form={form} name="entityId" />
        <TextField form={form} name="from" type="date" />
        <TextField form={form} name="to" type="date" />
      </AdminFormView>
      <RequestView request={page} what="the audit log">
        {({ entries, next }) => (
          <>
            <AuditTable caption={before ? 'Older entries' : 'Newest entries'} entries={entries} />
            <PlacePager label="Audit log pages" filters={filters} param="before" next={next} first="Newest" later="Older" />
          </>
        )}
      </RequestView>
    </>
  );
}

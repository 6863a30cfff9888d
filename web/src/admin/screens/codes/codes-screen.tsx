import { useMemo } from 'react';
import { Link } from 'react-router';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { columnsOf, DataTable } from '../../components/data-table';
import type { Choice } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import type { Code } from '../../lib/api-types';
import { CODE_STATE_LABELS } from '../../lib/labels';
import { useSectionChoices } from '../../lib/reference-data';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';

// Discount codes (decision 017): what each gives, until when, how often it
// was used, whether it can be used today (the server's `state`: a code past
// its last day is expired whatever its switch says), and what it is
// limited to.

export const CODES_PATH = '/api/admin/codes';

/** 10% off, or £25.00 off. */
export const discountLabel = (code: Pick<Code, 'type' | 'value'>) => (code.type === 'percent' ? `${code.value}% off` : `${formatMoney(code.value)} off`);

/** '2 courses; sections: Aesthetics Courses', a section by its name once the names are in. */
function limitsLabel(code: Code, sections: readonly Choice[]): string {
  const sectionName = (slug: string) => sections.find((section) => section.value === slug)?.label ?? slug;
  const parts = [
    code.courseIds.length > 0 && `${code.courseIds.length} course${code.courseIds.length === 1 ? '' : 's'}`,
    code.sectionSlugs.length > 0 && `sections: ${code.sectionSlugs.map(sectionName).join(', ')}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'Everything';
}

const column = columnsOf<Code>();
const columnsWith = (sections: readonly Choice[]) =>
  column.columns([
    column.accessor('code', { header: 'Code', cell: (info) => <Link to={paths.code(info.getValue())}>{info.getValue()}</Link> }),
    column.accessor((code) => discountLabel(code), { id: 'discount', header: 'Discount' }),
    column.accessor('expiresOn', { header: 'Expires', cell: (info) => (info.getValue() ? formatShortDate(info.getValue() ?? '') : 'Never') }),
    column.accessor('uses', { header: 'Uses', cell: (info) => (info.row.original.maxUses === null ? String(info.getValue()) : `${info.getValue()} of ${info.row.original.maxUses}`) }),
    column.accessor('state', { header: 'State', cell: (info) => CODE_STATE_LABELS[info.getValue()] }),
    // Drawn, not an accessor: a row keeps an accessor's first value, before the names came.
    column.display({ id: 'limits', header: 'Limited to', cell: (info) => limitsLabel(info.row.original, sections) }),
  ]);

export function CodesScreen() {
  const codes = useAdminData<{ codes: Code[] }>(CODES_PATH);
  const sections = useSectionChoices();
  const columns = useMemo(() => columnsWith(sections ?? []), [sections]);
  return (
    <>
      <PageHeading>Discount codes</PageHeading>
      <p>
        <Link className="button" to={paths.newCode}>
          New code
        </Link>
      </p>
      <RequestView request={codes} what="the codes">
        {({ codes: found }) => <DataTable caption="Discount codes" columns={columns} rows={found} rowId={(code) => code.code} empty="No codes yet." initialSort={[{ id: 'code', desc: false }]} />}
      </RequestView>
    </>
  );
}

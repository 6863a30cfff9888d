import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { formatMoney } from '../../../lib/money';
import { AdminFormView } from '../../components/admin-form';
import { columnsOf, DataTable } from '../../components/data-table';
import { TextField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPut, apiPath } from '../../lib/admin-api';
import type { Upsell } from '../../lib/api-types';
import { pounds, poundsFromPence, requiredText } from '../../lib/form-rules';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';

// Upsells (decision 017): what the checkout offers beside a course, and the
// words and price it offers it with. The page of one finds it in the list,
// as there is no `GET /upsells/{priceId}`.

const UPSELLS_PATH = '/api/admin/upsells';

const column = columnsOf<Upsell>();
const columns = column.columns([
  column.accessor('title', { header: 'Title', cell: (info) => <Link to={paths.upsell(info.row.original.priceId)}>{info.getValue()}</Link> }),
  column.accessor('description', { header: 'Description', enableSorting: false }),
  column.accessor('cta', { header: 'Button', enableSorting: false }),
  column.accessor('unitAmount', { header: 'Price', cell: (info) => formatMoney(info.getValue()) }),
]);

export function UpsellsScreen() {
  const upsells = useAdminData<{ upsells: Upsell[] }>(UPSELLS_PATH);
  return (
    <>
      <PageHeading>Upsells</PageHeading>
      <RequestView request={upsells} what="the upsells">
        {({ upsells: found }) => <DataTable caption="Upsells" columns={columns} rows={found} rowId={(upsell) => upsell.priceId} empty="No upsells." initialSort={[{ id: 'title', desc: false }]} />}
      </RequestView>
    </>
  );
}

const schema = z.object({
  title: requiredText('Enter the title'),
  description: requiredText('Enter the description'),
  cta: requiredText('Enter the button’s words'),
  unitAmount: pounds('Enter the price'),
});

function UpsellForm({ upsell }: { upsell: Upsell }) {
  const form = useAdminForm({
    schema,
    defaultValues: { title: upsell.title, description: upsell.description, cta: upsell.cta, unitAmount: poundsFromPence(upsell.unitAmount) },
    labels: { title: 'Title', description: 'Description', cta: 'Button', unitAmount: 'Price (£)' },
    send: async (changed) => {
      await adminPut<unknown>(apiPath('upsells', upsell.priceId), changed);
      return 'Upsell saved.';
    },
  });
  return (
    <AdminFormView form={form} submit="Save the upsell">
      <TextField form={form} name="title" required />
      <TextField form={form} name="description" multiline required />
      <TextField form={form} name="cta" hint="The words on its button at the checkout, like ‘Add the kit’" required />
      <TextField form={form} name="unitAmount" inputMode="decimal" hint="In pounds, like 95 or 95.50" required />
    </AdminFormView>
  );
}

export function UpsellScreen() {
  const { priceId = '' } = useParams();
  const upsells = useAdminData<{ upsells: Upsell[] }>(UPSELLS_PATH);
  const found = upsells.data?.upsells.find((upsell) => upsell.priceId === priceId);
  return (
    <>
      <PageHeading>{found ? `Upsell: ${found.title}` : 'Upsell'}</PageHeading>
      <RequestView request={upsells} what="the upsells">
        {() => (found ? <UpsellForm upsell={found} /> : <p className="refusal">There is no such upsell.</p>)}
      </RequestView>
    </>
  );
}

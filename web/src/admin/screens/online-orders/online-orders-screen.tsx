import { Link } from 'react-router';
import { z } from 'zod';
import { formatMoney } from '../../../lib/money';
import { AdminFormView } from '../../components/admin-form';
import { columnsOf, DataTable } from '../../components/data-table';
import { ChoiceField, TextField } from '../../components/form-fields';
import { OrdersTabs } from '../../components/orders-tabs';
import { PageHeading } from '../../components/page-heading';
import { RequestView, ResultCount } from '../../components/request-view';
import { useFilterForm } from '../../components/use-filter-form';
import { PlacePager } from '../../components/place-pager';
import { withQuery } from '../../lib/admin-api';
import type { Course, OnlineOrderRow, OnlineOrders } from '../../lib/api-types';
import { choicesOf, formatInstant, labelOf, ONLINE_ORDER_STATUS_LABELS } from '../../lib/labels';
import { useAdminData } from '../../lib/use-admin-data';
import { useQueryFilters } from '../../lib/use-query-filters';
import { paths } from '../../paths';

// Finding an online order (decision 027): by reference, email, name or a
// line's title, status and course bought, the newest first, 100 to a page
// ("Older" follows the answer's `next`, decision 039); and each online
// course's learners, one link a course.

const FILTERS = ['q', 'status', 'course'] as const;
const STATUS_CHOICES = choicesOf(ONLINE_ORDER_STATUS_LABELS);
const schema = z.object({ q: z.string().trim(), status: z.string(), course: z.string() });

const column = columnsOf<OnlineOrderRow>();
const columns = column.columns([
  column.accessor('reference', { header: 'Reference', cell: (info) => <Link to={paths.onlineOrder(info.row.original.id)}>{info.getValue()}</Link> }),
  column.accessor('createdAt', { header: 'Placed', cell: (info) => formatInstant(info.getValue()) }),
  column.accessor('name', { header: 'Name', cell: (info) => info.getValue() || '—' }),
  column.accessor('email', { header: 'Email' }),
  column.accessor((order) => order.lines.join(', '), { id: 'lines', header: 'Bought' }),
  column.accessor('total', { header: 'Total', cell: (info) => formatMoney(info.getValue()) }),
  column.accessor('paid', { header: 'Paid', cell: (info) => formatMoney(info.getValue()) }),
  column.accessor('status', { header: 'Status', cell: (info) => labelOf(ONLINE_ORDER_STATUS_LABELS, info.getValue()) }),
]);

export function OnlineOrdersScreen() {
  const filters = useQueryFilters(FILTERS, '/api/admin/online-orders');
  const courses = useAdminData<{ courses: Course[] }>('/api/admin/courses').data?.courses.filter((course) => course.online);
  const before = filters.params.get('before') ?? '';
  const orders = useAdminData<OnlineOrders>(withQuery(filters.path, { before }));
  const form = useFilterForm(filters, schema, { q: 'Reference, email, name or course', status: 'Status', course: 'Course' });
  return (
    <>
      <PageHeading>Online orders</PageHeading>
      <OrdersTabs current="online" />
      <AdminFormView form={form} submit="Search" className="filters">
        <TextField form={form} name="q" />
        <ChoiceField form={form} name="status" choices={STATUS_CHOICES} none="Any status" />
        <ChoiceField form={form} name="course" choices={courses?.map((c) => ({ value: c.id, label: c.title })) ?? []} none="Any course" />
      </AdminFormView>
      <ResultCount count={orders.data?.orders.length} one="order" many="orders" />
      <RequestView request={orders} what="the online orders">
        {({ orders: found, next }) => (
          <>
            <DataTable caption={before ? 'Older online orders found' : 'Online orders found'} columns={columns} rows={found} rowId={(order) => order.id} empty="No online orders match this search." initialSort={[{ id: 'createdAt', desc: true }]} />
            <PlacePager label="Pages of online orders" filters={filters} param="before" next={next} first="Newest" later="Older" />
          </>
        )}
      </RequestView>
      <h2>Learners by course</h2>
      {courses && courses.length > 0 ? (
        <ul>
          {courses.map((course) => (
            <li key={course.id}>
              <Link to={paths.learners(course.id)}>{course.title}</Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">No online courses yet.</p>
      )}
    </>
  );
}

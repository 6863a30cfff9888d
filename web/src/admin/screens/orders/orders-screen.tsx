import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { ChoiceField, TextField } from '../../components/form-fields';
import { OrdersTable } from '../../components/orders-table';
import { OrdersTabs } from '../../components/orders-tabs';
import { PageHeading } from '../../components/page-heading';
import { RequestView, ResultCount } from '../../components/request-view';
import { useFilterForm } from '../../components/use-filter-form';
import { PlacePager } from '../../components/place-pager';
import { withQuery } from '../../lib/admin-api';
import type { OrdersPage } from '../../lib/api-types';
import { choicesOf, ORDER_STATUS_LABELS } from '../../lib/labels';
import { useCourseChoices } from '../../lib/reference-data';
import { useAdminData } from '../../lib/use-admin-data';
import { useQueryFilters } from '../../lib/use-query-filters';

// Finding an order (decision 017): by name, email, reference or id, status,
// course and the date of a booked session; the newest first, 100 to a
// page: "Older" follows the answer's `next`, kept in the address like the
// filters.

const FILTERS = ['q', 'status', 'course', 'date'] as const;
const STATUS_CHOICES = choicesOf(ORDER_STATUS_LABELS);
const schema = z.object({ q: z.string().trim(), status: z.string(), course: z.string(), date: z.string() });

export function OrdersScreen() {
  const filters = useQueryFilters(FILTERS, '/api/admin/orders');
  const courses = useCourseChoices();
  const before = filters.params.get('before') ?? '';
  const orders = useAdminData<OrdersPage>(withQuery(filters.path, { before }));
  const form = useFilterForm(filters, schema, { q: 'Name, email or reference', status: 'Status', course: 'Course', date: 'Session date' });
  return (
    <>
      <PageHeading>Orders</PageHeading>
      <OrdersTabs current="bookings" />
      <AdminFormView form={form} submit="Search" className="filters">
        <TextField form={form} name="q" />
        <ChoiceField form={form} name="status" choices={STATUS_CHOICES} none="Any status" />
        <ChoiceField form={form} name="course" choices={courses ?? []} none="Any course" />
        <TextField form={form} name="date" type="date" hint="The day a booked session runs" />
      </AdminFormView>
      <ResultCount count={orders.data?.orders.length} one="order" many="orders" />
      <RequestView request={orders} what="the orders">
        {({ orders: found, next }) => (
          <>
            <OrdersTable caption={before ? 'Older orders found' : 'Orders found'} orders={found} empty="No orders match this search." />
            <PlacePager label="Pages of orders" filters={filters} param="before" next={next} first="Newest" later="Older" />
          </>
        )}
      </RequestView>
    </>
  );
}

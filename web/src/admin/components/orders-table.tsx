import { Link } from 'react-router';
import { formatMoney } from '../../lib/money';
import type { OrderRow } from '../lib/api-types';
import { formatInstant, labelOf, ORDER_STATUS_LABELS } from '../lib/labels';
import { paths } from '../paths';
import { columnsOf, DataTable } from './data-table';

// Orders as the search and a code's uses list them (decision 017's order row).

const column = columnsOf<OrderRow>();

const columns = column.columns([
  column.accessor('reference', {
    header: 'Reference',
    cell: (info) => <Link to={paths.order(info.row.original.id)}>{info.getValue()}</Link>,
  }),
  column.accessor('createdAt', { header: 'Placed', cell: (info) => formatInstant(info.getValue()) }),
  column.accessor('name', { header: 'Name' }),
  column.accessor('email', { header: 'Email' }),
  column.accessor((order) => order.courses.join(', '), { id: 'courses', header: 'Courses' }),
  column.accessor('total', { header: 'Total', cell: (info) => formatMoney(info.getValue()) }),
  column.accessor('paid', { header: 'Paid', cell: (info) => formatMoney(info.getValue()) }),
  column.accessor('status', { header: 'Status', cell: (info) => labelOf(ORDER_STATUS_LABELS, info.getValue()) }),
]);

export function OrdersTable({ caption, orders, empty }: { caption: string; orders: OrderRow[]; empty: string }) {
  return <DataTable caption={caption} columns={columns} rows={orders} rowId={(order) => order.id} empty={empty} initialSort={[{ id: 'createdAt', desc: true }]} />;
}

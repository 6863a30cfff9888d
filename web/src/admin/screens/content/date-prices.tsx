import { Link } from 'react-router';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { columnsOf, DataTable } from '../../components/data-table';
import type { DatePrice } from '../../lib/api-types';
import { paths } from '../../paths';

// A course's dates still to come beside its editor (decision 019): what
// each charges, and which follow the course's price (a new price moves
// them) or carry their own (changed on the session's page only). The site
// shows what the dates charge, so the editor says it too.

const date = columnsOf<DatePrice>();

const columns = date.columns([
  date.accessor('date', { header: 'Date', cell: (info) => <Link to={paths.session(info.row.original.session_id)}>{formatShortDate(info.getValue())}</Link> }),
  date.accessor('price', { header: 'Price', cell: (info) => formatMoney(info.getValue()) }),
  date.accessor('own_price', { header: 'Priced', cell: (info) => (info.getValue() ? 'Its own price' : 'Follows the course') }),
]);

export function DatePrices({ dates }: { dates: DatePrice[] }) {
  return (
    <section aria-labelledby="date-prices-heading">
      <h2 id="date-prices-heading">Dates and their prices</h2>
      <p>
        The site shows what the dates charge, from the lowest. Publishing a new price moves the dates that follow the course’s price; a date with its own price keeps
        it until you change it on its page.
      </p>
      <DataTable caption="Dates to come" columns={columns} rows={dates} rowId={(row) => row.session_id} empty="No dates to come: the site shows the course’s price." />
    </section>
  );
}

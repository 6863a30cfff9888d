import { useId } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/money';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { SeatsMeter } from '../../components/seats-meter';
import type { Dashboard, Figures, OnlineSales } from '../../lib/api-types';
import { sessionWhen } from '../../lib/labels';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';

// The figures staff look at first (decision 017): bookings, takings and
// e-learning sold this week and month, the sessions coming up and how full
// they are, the balances still to come in, and the enquiries waiting for
// someone to pick them up.

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

function FiguresCard({ title, figures, online }: { title: string; figures: Figures; online: OnlineSales }) {
  const id = useId();
  return (
    <section className="figure-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl>
        <dt>Bookings</dt>
        <dd>{figures.bookings}</dd>
        <dt>Takings</dt>
        <dd>{formatMoney(figures.takings)}</dd>
        <dt>E-learning sold</dt>
        <dd>{`${plural(online.orders, 'order')}, ${formatMoney(online.amount)}`}</dd>
      </dl>
    </section>
  );
}

function DashboardFigures({ dashboard }: { dashboard: Dashboard }) {
  const staff = useStaff();
  const { balances, enquiries } = dashboard;
  return (
    <>
      <div className="figure-grid">
        <FiguresCard title="This week" figures={dashboard.week} online={dashboard.online.week} />
        <FiguresCard title="This month" figures={dashboard.month} online={dashboard.online.month} />
        <section className="figure-card" aria-labelledby="figures-balances">
          <h2 id="figures-balances">Balances due</h2>
          <dl>
            <dt>Still to pay</dt>
            <dd>{`${plural(balances.count, 'booking')}, ${formatMoney(balances.amount)}`}</dd>
            <dt>Overdue</dt>
            <dd>{`${plural(balances.overdueCount, 'booking')}, ${formatMoney(balances.overdueAmount)}`}</dd>
          </dl>
          {can(staff, 'orders') && <Link to={`${paths.orders}?status=deposit`}>Orders with a balance to pay</Link>}
        </section>
        <section className="figure-card" aria-labelledby="figures-enquiries">
          <h2 id="figures-enquiries">Enquiries</h2>
          <dl>
            <dt>New, not yet picked up</dt>
            <dd>{enquiries.new}</dd>
          </dl>
          {can(staff, 'enquiries') && <Link to={`${paths.enquiries}?status=new`}>{enquiries.new === 1 ? 'The new enquiry' : 'New enquiries'}</Link>}
        </section>
      </div>
      <h2>Upcoming sessions</h2>
      {dashboard.upcoming.length === 0 ? (
        <p className="empty">No sessions coming up.</p>
      ) : (
        <ul className="session-list">
          {dashboard.upcoming.map((session) => (
            <li key={session.id}>
              <p className="session-title">
                {can(staff, 'rosters') ? <Link to={paths.roster(session.id)}>{session.courseTitle}</Link> : session.courseTitle}
              </p>
              <p>{sessionWhen(session)}</p>
              <SeatsMeter session={session} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function DashboardScreen() {
  const dashboard = useAdminData<Dashboard>('/api/admin/dashboard');
  return (
    <>
      <PageHeading>Dashboard</PageHeading>
      <RequestView request={dashboard} what="the figures">
        {(found) => <DashboardFigures dashboard={found} />}
      </RequestView>
    </>
  );
}

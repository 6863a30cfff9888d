import { Link } from 'react-router';
import type { AccountData } from '../../../generated/AccountData';
import type { EnrollmentStatus } from '../../../generated/EnrollmentStatus';
import { AddToCalendar } from '../../../components/add-to-calendar';
import { BookingTable } from '../../../components/booking-table';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { CancelBooking } from './cancel-booking';
import { ChangeDate } from './change-date';
import { PayBalanceButton } from './pay-balance-button';

const STATUS_WORDS: Record<EnrollmentStatus, string> = {
  pending: 'Awaiting payment',
  deposit: 'Booking fee paid',
  completed: 'Paid in full',
  failed: 'Payment failed',
  cancelled: 'Cancelled',
};

/**
 * Each booking (enrollment) with its status (pending, deposit, completed),
 * courses, dates, discount and balance, and what was refunded of it.
 */
export function Bookings({ data, onChanged, today }: { data: AccountData; onChanged: () => void; today: string }) {
  if (data.enrollments.length === 0) {
    return (
      <p>
        You have no bookings yet. <Link to="/courses/">Browse our courses</Link>
      </p>
    );
  }
  return data.enrollments.map((enrollment) => (
    <div key={enrollment.id} className="account-booking">
      <BookingTable
        // What was paid, with what came back said under it, not netted away.
        booking={{ ...enrollment, paid: enrollment.paid + enrollment.refunded }}
        today={today}
        caption={
          <>
            {`Booking ${enrollment.reference}, made ${formatShortDate(enrollment.createdAt)} `}
            <span className={`booking-status booking-status-${enrollment.status}`}>{STATUS_WORDS[enrollment.status]}</span>
          </>
        }
      />
      {enrollment.refunded > 0 && <p className="booking-refund">{`Refunded to you: ${formatMoney(enrollment.refunded)}`}</p>}
      {enrollment.status === 'cancelled' && enrollment.refunded === 0 && <p className="booking-refund">No refund was due under our terms.</p>}
      {enrollment.status !== 'cancelled' && <AddToCalendar orderId={enrollment.id} lines={enrollment.lines} />}
      {enrollment.status === 'deposit' && enrollment.balance > 0 && (
        <PayBalanceButton enrollmentId={enrollment.id} balance={enrollment.balance} />
      )}
      {(enrollment.status === 'deposit' || enrollment.status === 'completed') && (
        <div className="button-row">
          <ChangeDate enrollmentId={enrollment.id} onMoved={onChanged} />
          <CancelBooking enrollmentId={enrollment.id} onCancelled={onChanged} />
        </div>
      )}
    </div>
  ));
}

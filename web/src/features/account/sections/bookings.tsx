import { Link } from '../../../lib/router';
import type { AccountData } from '../../../generated/AccountData';
import type { BookingMaterial } from '../../../generated/BookingMaterial';
import type { EnrollmentStatus } from '../../../generated/EnrollmentStatus';
import type { StudentPlan } from '../../../generated/StudentPlan';
import { AddToCalendar } from '../../../components/add-to-calendar';
import { BookingTable } from '../../../components/booking-table';
import { formatShortDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { useAccountQuery } from '../use-account-query';
import { BookingMaterials, MATERIALS_QUERY } from './booking-materials';
import { CancelBooking } from './cancel-booking';
import { ChangeDate } from './change-date';
import { PayBalanceButton } from './pay-balance-button';
import { PaymentPlanSummary, PLANS_QUERY } from '../../../components/payment-plan-summary';
import { TO_DO_FIELDS, ToDoList, type ToDo } from './to-do';

const TO_DO_QUERY = `{ ${TO_DO_FIELDS} }`;

const STATUS_WORDS: Record<EnrollmentStatus, string> = {
  pending: 'Awaiting payment',
  deposit: 'Booking fee paid',
  completed: 'Paid in full',
  failed: 'Payment failed',
  cancelled: 'Cancelled',
};

/**
 * Each booking (enrollment) with its status (pending, deposit, completed),
 * courses, dates, discount and balance, and what was refunded of it, and
 * the materials of its courses once its booking fee is paid, and what is
 * still to do before its training, with the day it is due.
 */
export function Bookings({ data, onChanged, today }: { data: AccountData; onChanged: () => void; today: string }) {
  const materials = useAccountQuery<{ materials: BookingMaterial[] }>('course materials', MATERIALS_QUERY).data?.materials ?? [];
  const toDo = useAccountQuery<ToDo>('what is left before training', TO_DO_QUERY).data ?? { forms: [], uploads: [] };
  const plans = useAccountQuery<{ payment_plans: StudentPlan[] }>('payment plans', PLANS_QUERY).data?.payment_plans ?? [];
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
      <BookingMaterials materials={materials.filter((material) => material.enrollment_id === enrollment.id)} />
      <ToDoList
        toDo={{ forms: toDo.forms.filter((form) => form.enrollment_id === enrollment.id), uploads: toDo.uploads.filter((wanted) => wanted.enrollment_id === enrollment.id) }}
        label={`Still to do before the training of booking ${enrollment.reference}`}
        heading="Before your training"
      />
      {plans.filter((plan) => plan.enrollment_id === enrollment.id).map((plan) => (
        <PaymentPlanSummary key={plan.enrollment_id} plan={plan} today={today} />
      ))}
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

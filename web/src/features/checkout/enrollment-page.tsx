import { useEffect } from 'react';
import { Link, useNavigate } from '../../lib/router';
import type { EnrollmentPage as EnrollmentData } from '../../generated/EnrollmentPage';
import type { Page } from '../../generated/Page';
import { removeItem } from '../../lib/storage';
import { trackEnrolConversion } from '../../lib/conversions';
import { usePendingPage } from '../../lib/use-pending-page';
import { useBasket } from '../../lib/basket';
import { BookingTable } from '../../components/booking-table';
import { AddToCalendar } from '../../components/add-to-calendar';
import { PaymentStatus } from '../../components/payment-status';
import { ORDER_ID_KEY } from './order-id';

const isPending = (enrollment: EnrollmentData) => enrollment.status === 'pending';
const readEnrollment = (page: Page): EnrollmentData | null => (page.kind === 'enrollment' ? page : null);

// A buy-now-pay-later payment may come without the checkout's contact details.
function confirmationText({ givenName, email }: EnrollmentData): string {
  const thanks = givenName ? `Thank you, ${givenName}.` : 'Thank you.';
  return email
    ? `${thanks} We have emailed your booking confirmation to ${email}.`
    : `${thanks} Please keep your booking reference below.`;
}

/**
 * `/enrolment/{orderId}`, where the payment provider sends the visitor back.
 * It shows the server's records; the basket is emptied only once the server
 * says the payment went through, and a failed payment goes back to checkout.
 */
export function EnrollmentPage({ page, today }: { page: EnrollmentData; today: string }) {
  const { page: enrollment, gaveUp } = usePendingPage(page, isPending, readEnrollment);
  const { restored, emptyBasket } = useBasket();
  const navigate = useNavigate();
  const { status } = enrollment;
  const confirmed = status === 'deposit' || status === 'completed';

  useEffect(() => {
    if (!confirmed || !restored) return;
    emptyBasket();
    removeItem('local', ORDER_ID_KEY);
    trackEnrolConversion(enrollment.orderId, enrollment.total);
  }, [confirmed, restored, emptyBasket, enrollment.orderId, enrollment.total]);

  useEffect(() => {
    if (status === 'failed') navigate('/checkout/?status=failed', { replace: true });
  }, [status, navigate]);

  return (
    <div className="container order-page">
      <PaymentStatus
        state={confirmed ? 'confirmed' : status === 'failed' ? 'failed' : 'waiting'}
        gaveUp={gaveUp}
        heading={confirmed ? "You're enrolled" : 'Confirming your payment'}
        confirmed={confirmationText(enrollment)}
        failed="Your payment did not go through. Taking you back to the checkout."
        mailed="booking confirmation"
        reference={['Booking reference', enrollment.reference]}
      />
      {confirmed && (
        <>
          <BookingTable caption={`Your booking ${enrollment.reference}`} booking={enrollment} today={today} />
          <AddToCalendar orderId={enrollment.orderId} lines={enrollment.lines} />
          <section aria-labelledby="enrollment-next-title">
            <h2 id="enrollment-next-title">What happens next</h2>
            <ul className="order-next">
              <li>Your booking confirmation, with the course times and what to bring, is on its way by email.</li>
              {enrollment.balance > 0 && <li>We will remind you before the balance is due.</li>}
              <li>
                Questions about your booking? <Link to="/contact/">Contact us</Link> and quote your booking reference.
              </li>
            </ul>
          </section>
        </>
      )}
    </div>
  );
}

import type { EnrollmentLine } from '../generated/EnrollmentLine';

/**
 * Decision 015: a paid booking's dated training as a calendar file (the one its
 * confirmation mail carries), for the browser that booked it or its owner.
 */
export function AddToCalendar({ orderId, lines }: { orderId: string; lines: EnrollmentLine[] }) {
  if (!lines.some((line) => line.date)) return null;
  return (
    <p>
      <a className="button button-secondary" href={`/api/enrollments/${encodeURIComponent(orderId)}/calendar.ics`} download>
        Add to calendar
      </a>
    </p>
  );
}

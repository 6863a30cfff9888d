import { useId } from 'react';
import type { Session } from '../lib/api-types';
import { seatsFilled, seatsTaken } from '../lib/labels';

/** How full a session is: in words, and as a meter those words label. */
export function SeatsMeter({ session }: { session: Pick<Session, 'seats' | 'booked' | 'takenElsewhere' | 'held'> }) {
  const id = useId();
  return (
    <span className="seats">
      <span id={id}>{seatsFilled(session)}</span>
      <meter aria-labelledby={id} min={0} max={Math.max(session.seats, 1)} value={seatsTaken(session)} />
    </span>
  );
}

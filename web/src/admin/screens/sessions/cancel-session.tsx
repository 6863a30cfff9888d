import { ConfirmStep } from '../../components/confirm-step';
import type { Command } from '../../components/use-command';
import { adminPost, apiPath } from '../../lib/admin-api';
import type { Session } from '../../lib/api-types';

const students = (count: number) => (count === 1 ? '1 student' : `${count} students`);

/**
 * The college cancels a session (decision 017): off sale at once, and every
 * booked student is offered a move or a full refund. What it did is said by
 * the page, which outlives this section.
 */
export function CancelSession({ session, cancelling, onCancelled }: { session: Session; cancelling: Command; onCancelled: () => void }) {
  return (
    <section aria-labelledby="cancel-session">
      <h2 id="cancel-session">Cancel this session</h2>
      <ConfirmStep
        ask="Cancel this session…"
        confirm="Yes, cancel the session"
        keep="No, keep it"
        busy={cancelling.busy}
        onConfirm={() =>
          void cancelling.run(async () => {
            const answer = await adminPost<{ students: number }>(apiPath('sessions', session.id, 'cancel'));
            onCancelled();
            return `Session cancelled. ${students(answer.students)} emailed: each can move to another date or take a full refund.`;
          })
        }
      >
        <p>
          {`The session goes off sale now. ${session.booked === 0 ? 'Nobody is booked on it.' : `${students(session.booked)} booked on it will be emailed, each offered a move to another date or a full refund.`}`}
        </p>
        <p>This cannot be undone.</p>
      </ConfirmStep>
    </section>
  );
}

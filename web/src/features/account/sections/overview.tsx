import { Link } from '../../../lib/router';
import type { AccountData } from '../../../generated/AccountData';
import type { IntakeCall } from '../../../generated/IntakeCall';
import type { Registration } from '../../../generated/Registration';
import { formatSessionDate, formatTime } from '../../../lib/dates';
import { balanceDueWords } from '../../../lib/balance-due';
import { formatMoney } from '../../../lib/money';
import { Loaded } from '../loaded';
import { useAccountQuery } from '../use-account-query';
import { PayBalanceButton } from './pay-balance-button';
import { stillToDo, TO_DO_FIELDS, ToDoList, type ToDo } from './to-do';

const OVERVIEW_QUERY = `{
  registrations { id course_title course_url date start end session_type upcoming }
  ${TO_DO_FIELDS}
  intake_calls { id date time status }
}`;

interface Overview extends ToDo {
  registrations: Registration[];
  intake_calls: IntakeCall[];
}

/** Where a session happens: the academy's address, or online with the link mailed before the day. */
function where(registration: Registration, venue: string) {
  if (registration.session_type === 'virtual') return 'Online: we email your joining link and instructions before the day';
  if (registration.session_type === 'blended') return `Online and at the academy, ${venue}`;
  return `At the academy, ${venue}`;
}

/** The account's first page: the next sessions, balances due, what is left to do before training (with its deadline) and a booked call. */
export function Overview({ data, venue, today }: { data: AccountData; venue: string; today: string }) {
  const overview = useAccountQuery<Overview>('overview', OVERVIEW_QUERY);
  const due = data.enrollments.filter((enrollment) => enrollment.balance > 0 && enrollment.status === 'deposit');
  return (
    <>
      <h3>Your next sessions</h3>
      <Loaded request={overview} what="your sessions">
        {({ registrations }) => {
          const next = registrations.filter((r) => r.upcoming);
          return next.length === 0 ? (
            <p>
              You have no sessions booked. <Link to="/training-course-calendar/">See the training calendar</Link>
            </p>
          ) : (
            <ul className="account-list" aria-label="Your next sessions">
              {next.map((r) => (
                <li key={r.id}>
                  <Link to={r.course_url}>{r.course_title}</Link>
                  <span>{`${formatSessionDate(r.start)}, ${formatTime(r.start)} to ${formatTime(r.end)}`}</span>
                  <span>{where(r, venue)}</span>
                </li>
              ))}
            </ul>
          );
        }}
      </Loaded>
      <h3>Balances due</h3>
      {due.length === 0 ? (
        <p>Nothing is due: your bookings are paid.</p>
      ) : (
        <ul className="account-list">
          {due.map((enrollment) => (
            <li key={enrollment.id}>
              <span>{enrollment.lines.map((line) => line.title).join(', ')}</span>
              <strong>
                {`${formatMoney(enrollment.balance)} ${balanceDueWords(enrollment.balanceDueOn, today)}`}
              </strong>
              <PayBalanceButton enrollmentId={enrollment.id} balance={enrollment.balance} />
            </li>
          ))}
        </ul>
      )}
      <Loaded request={overview} what="what is left before your training">
        {({ forms, uploads, intake_calls }) => {
          const left = stillToDo({ forms, uploads });
          const call = intake_calls.find((c) => c.status === 'booked');
          return (
            <>
              <h3>Still to do before your training</h3>
              {left.forms.length === 0 && left.uploads.length === 0 ? (
                <p>Nothing: every form is complete and every document sent. Thank you.</p>
              ) : (
                <ToDoList toDo={left} label="Still to do before your training" />
              )}
              {call && (
                <p>
                  {`Your intake call is booked for ${formatSessionDate(`${call.date}T${call.time}:00`)} at ${call.time}. `}
                  <Link to="/account/intake-call/">Change it</Link>
                </p>
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}

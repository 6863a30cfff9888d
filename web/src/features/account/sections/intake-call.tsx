import { useId, useState, type FormEvent } from 'react';
import type { IntakeCall } from '../../../generated/IntakeCall';
import type { IntakeDay } from '../../../generated/IntakeDay';
import { ApiError, getJson, postJson } from '../../../lib/api';
import { formatSessionDate } from '../../../lib/dates';
import { reportError } from '../../../lib/report-error';
import { useRequest } from '../../../lib/use-request';
import { Loaded } from '../loaded';
import { useAccountQuery } from '../use-account-query';

// §3 intake_call: a call with an adviser before a programme starts. The
// student books one free time (weekdays, next two weeks, London times),
// and can give it back to choose another.

const CALLS_QUERY = '{ intake_calls { id date time status } }';
const SLOTS_PATH = '/api/account/intake-calls/slots';

const dayLabel = (date: string) => formatSessionDate(`${date}T00:00:00`);
const failed = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

function BookCall({ onBooked }: { onBooked: () => void }) {
  const id = useId();
  const slots = useRequest(SLOTS_PATH, (signal) => getJson<{ days: IntakeDay[] }>(SLOTS_PATH, signal), { reportAs: 'load the call times' });
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);

  async function book(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    if (!date || !time) {
      setMessage('Choose a day and a time.');
      return;
    }
    setSending(true);
    setMessage('');
    try {
      await postJson('/api/account/intake-calls', { date, time });
      onBooked();
    } catch (error) {
      reportError(error, { action: 'book an intake call' });
      setMessage(failed(error, 'We could not book the call. Please check your connection and try again.'));
      slots.retry();
    } finally {
      setSending(false);
    }
  }

  return (
    <Loaded request={slots} what="the call times">
      {({ days }) => {
        const times = days.find((d) => d.date === date)?.times ?? [];
        return days.length === 0 ? (
          <p>Every call time in the next two weeks is taken. Please call us and we will find one.</p>
        ) : (
          <form noValidate onSubmit={(event) => void book(event)}>
            <div className="field">
              <label htmlFor={`${id}-day`}>Day</label>
              <select id={`${id}-day`} value={date} onChange={(event) => { setDate(event.target.value); setTime(''); }}>
                <option value="">Please choose</option>
                {days.map((d) => <option key={d.date} value={d.date}>{dayLabel(d.date)}</option>)}
              </select>
            </div>
            {times.length > 0 && (
              <fieldset className="choice-list">
                <legend>Time (UK time)</legend>
                {times.map((t) => (
                  <label key={t}>
                    <input type="radio" name={`${id}-time`} value={t} checked={time === t} onChange={() => setTime(t)} />
                    {t}
                  </label>
                ))}
              </fieldset>
            )}
            <p role="alert" className="form-error">{message}</p>
            <button type="submit" className="button" aria-disabled={sending}>{sending ? 'Booking...' : 'Book the call'}</button>
          </form>
        );
      }}
    </Loaded>
  );
}

function BookedCall({ call, onCancelled }: { call: IntakeCall; onCancelled: () => void }) {
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  async function cancel() {
    if (sending) return;
    setSending(true);
    try {
      await postJson(`/api/account/intake-calls/${encodeURIComponent(call.id)}/cancel`, {});
      onCancelled();
    } catch (error) {
      reportError(error, { action: 'cancel an intake call' });
      setMessage(failed(error, 'We could not cancel the call. Please check your connection and try again.'));
      setSending(false);
    }
  }
  return (
    <>
      <p>{`Your call is booked for ${dayLabel(call.date)} at ${call.time} (UK time). An adviser will call the number in your profile.`}</p>
      <p role="alert" className="form-error">{message}</p>
      <button type="button" className="button button-secondary" aria-disabled={sending} onClick={() => void cancel()}>
        {sending ? 'Cancelling...' : 'Cancel this call'}
      </button>
    </>
  );
}

/** The booked call, or the times free to book one. */
export function IntakeCallSection() {
  const calls = useAccountQuery<{ intake_calls: IntakeCall[] }>('intake call', CALLS_QUERY);
  return (
    <Loaded request={calls} what="your intake call">
      {({ intake_calls }) => {
        const booked = intake_calls.find((c) => c.status === 'booked');
        return booked ? (
          <BookedCall call={booked} onCancelled={calls.retry} />
        ) : (
          <>
            <p>Book a call with an adviser before your programme starts: we talk through your goals, your timetable and any questions.</p>
            <BookCall onBooked={calls.retry} />
          </>
        );
      }}
    </Loaded>
  );
}

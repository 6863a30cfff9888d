import { useId, useState, type FormEvent } from 'react';
import type { IntakeCall } from '../../../generated/IntakeCall';
import type { IntakeDay } from '../../../generated/IntakeDay';
import { ApiError, getJson, postJson } from '../../../lib/api';
import { formatSessionDate } from '../../../lib/dates';
import { reportError } from '../../../lib/report-error';
import { useAction } from '../../../lib/use-action';
import { useRequest } from '../../../lib/use-request';
import { Loaded } from '../loaded';
import { useAccountQuery } from '../use-account-query';

// An intake call (`intake_call`): a call with an adviser before a programme starts. The
// student books one free time (weekdays, next two weeks, London times),
// moves it to another free time (kept until the new one is had), or gives
// it back after saying so.

const CALLS_QUERY = '{ intake_calls { id date time status } }';
const SLOTS_PATH = '/api/account/intake-calls/slots';

const dayLabel = (date: string) => formatSessionDate(`${date}T00:00:00`);
const failed = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

/**
 * The free times, to book a call or, given `moving`, to move that one; then
 * `onDone` with the time had. `onBack`, when given, leaves without choosing.
 */
function ChooseTime({ moving, onDone, onBack }: { moving?: IntakeCall; onDone: (when: string) => void; onBack?: () => void }) {
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
      await postJson(moving ? `/api/account/intake-calls/${encodeURIComponent(moving.id)}/move` : '/api/account/intake-calls', { date, time });
      onDone(`${dayLabel(date)} at ${time}`);
    } catch (error) {
      reportError(error, { action: moving ? 'move an intake call' : 'book an intake call' });
      setMessage(failed(error, `We could not ${moving ? 'move' : 'book'} the call. Please check your connection and try again.`));
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
          <form noValidate onSubmit={(event) => void book(event)} aria-label={moving ? 'Choose a new time' : 'Book a call'}>
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
            <div className="button-row">
              <button type="submit" className="button" aria-disabled={sending}>
                {moving ? (sending ? 'Moving...' : 'Move the call') : sending ? 'Booking...' : 'Book the call'}
              </button>
              {onBack && (
                <button type="button" className="button button-secondary" onClick={onBack} disabled={sending}>
                  Keep the time I have
                </button>
              )}
            </div>
          </form>
        );
      }}
    </Loaded>
  );
}

/** The booked call: its time, to change or, once confirmed, to give back; then `onChanged` says what changed. */
function BookedCall({ call, onChanged }: { call: IntakeCall; onChanged: (news: string) => void }) {
  const id = useId();
  const [step, setStep] = useState<'shown' | 'moving' | 'cancelling'>('shown');
  const { busy, error, run } = useAction();
  const when = `${dayLabel(call.date)} at ${call.time}`;
  const cancel = () =>
    run(async () => {
      await postJson(`/api/account/intake-calls/${encodeURIComponent(call.id)}/cancel`, {});
      onChanged('Your call is cancelled.');
    });

  return (
    <>
      <p>{`Your call is booked for ${when} (UK time). An adviser will call the number in your profile.`}</p>
      {step === 'moving' && (
        <ChooseTime moving={call} onDone={(now) => onChanged(`Your call is moved to ${now} (UK time).`)} onBack={() => setStep('shown')} />
      )}
      {step === 'cancelling' && (
        <section className="cancel-booking" aria-labelledby={`${id}-title`}>
          <h3 id={`${id}-title`}>Cancel this call?</h3>
          <p>{`Your time, ${when}, is given to someone else. You can book another call afterwards.`}</p>
          {error && <p role="alert" className="form-error">{error}</p>}
          <div className="button-row">
            <button type="button" className="button" aria-disabled={busy} onClick={() => void cancel()}>
              {busy ? 'Cancelling...' : 'Yes, cancel the call'}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setStep('shown')} disabled={busy}>
              Keep my call
            </button>
          </div>
        </section>
      )}
      {step === 'shown' && (
        <div className="button-row">
          <button type="button" className="button" onClick={() => setStep('moving')}>
            Change the time
          </button>
          <button type="button" className="button button-secondary" onClick={() => setStep('cancelling')}>
            Cancel this call
          </button>
        </div>
      )}
    </>
  );
}

/** The booked call, or the times free to book one. */
export function IntakeCallSection() {
  const calls = useAccountQuery<{ intake_calls: IntakeCall[] }>('intake call', CALLS_QUERY);
  const [news, setNews] = useState('');
  const changed = (words: string) => {
    setNews(words);
    calls.retry();
  };
  return (
    <>
      <p role="status" className="form-success">{news}</p>
      <Loaded request={calls} what="your intake call">
        {({ intake_calls }) => {
          const booked = intake_calls.find((c) => c.status === 'booked');
          return booked ? (
            <BookedCall key={`${booked.id} ${booked.date} ${booked.time}`} call={booked} onChanged={changed} />
          ) : (
            <>
              <p>Book a call with an adviser before your programme starts: we talk through your goals, your timetable and any questions.</p>
              <ChooseTime onDone={() => changed('')} />
            </>
          );
        }}
      </Loaded>
    </>
  );
}

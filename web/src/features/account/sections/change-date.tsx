import { useId, useState } from 'react';
import type { OtherDate } from '../../../generated/OtherDate';
import { getJson, postJson } from '../../../lib/api';
import { formatSessionDate, formatTime } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { sessionTypeLabel } from '../../../lib/sessions';
import { useAction } from '../../../lib/use-action';

// A student moves a booked course to another date with a free
// seat, until 14 days before it (the terms); the price difference is shown
// with each date.

interface CourseDates {
  courseId: string;
  title: string;
  date: string;
  refused: string | null;
  dates: OtherDate[];
}

function difference(pence: number): string {
  if (pence === 0) return 'same price';
  return pence > 0 ? `${formatMoney(pence)} more` : `${formatMoney(-pence)} less`;
}

export function ChangeDate({ enrollmentId, onMoved }: { enrollmentId: string; onMoved: () => void }) {
  const id = useId();
  const [courses, setCourses] = useState<CourseDates[] | null>(null);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const { busy, error, run } = useAction();
  const path = `/api/account/enrollments/${encodeURIComponent(enrollmentId)}`;

  const open = () => run(async () => setCourses((await getJson<{ courses: CourseDates[] }>(`${path}/dates`)).courses));
  const move = (courseId: string) =>
    run(async () => {
      await postJson(`${path}/move`, { courseId, sessionId: chosen[courseId] });
      setCourses(null);
      onMoved();
    });

  if (!courses) {
    return (
      <>
        <button type="button" className="button button-secondary" aria-disabled={busy} onClick={() => void open()}>
          Change date
        </button>
        {error && <p role="alert" className="form-error">{error}</p>}
      </>
    );
  }
  return (
    <section className="cancel-booking" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Change a date</h3>
      {courses.map((course) => (
        <div key={course.courseId}>
          {course.refused ? (
            <p>{`${course.title}: ${course.refused}`}</p>
          ) : course.dates.length === 0 ? (
            <p>{`${course.title}: no other date has a free seat just now.`}</p>
          ) : (
            <fieldset className="field">
              <legend>{`${course.title}, now on ${formatSessionDate(course.date)}`}</legend>
              {course.dates.map((date) => (
                <label key={date.sessionId} className="radio-option">
                  <input
                    type="radio"
                    name={`${id}-${course.courseId}`}
                    value={date.sessionId}
                    checked={chosen[course.courseId] === date.sessionId}
                    onChange={() => setChosen((current) => ({ ...current, [course.courseId]: date.sessionId }))}
                  />
                  {`${formatSessionDate(date.date)}, ${formatTime(date.start)} to ${formatTime(date.end)}, ${sessionTypeLabel(date.sessionType)} (${difference(date.difference)})`}
                </label>
              ))}
              <button type="button" className="button" aria-disabled={busy || !chosen[course.courseId]} onClick={() => chosen[course.courseId] && void move(course.courseId)}>
                Move to this date
              </button>
            </fieldset>
          )}
        </div>
      ))}
      {error && <p role="alert" className="form-error">{error}</p>}
      <button type="button" className="button button-secondary" onClick={() => setCourses(null)} disabled={busy}>
        Keep my dates
      </button>
    </section>
  );
}

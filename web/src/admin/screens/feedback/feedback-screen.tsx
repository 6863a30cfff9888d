import { useMemo, useState } from 'react';
import { formatShortDate } from '../../../lib/dates';
import { columnsOf, DataTable } from '../../components/data-table';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useCommand } from '../../components/use-command';
import { adminPost, apiPath } from '../../lib/admin-api';
import type { FeedbackDay, FeedbackResults, GivenFeedback } from '../../lib/api-types';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';

// Feedback after the day (decision 034): how each course, tutor and date
// was rated, and what students wrote. A tutor reads their own sessions'
// only. Staff who edit content publish a comment on the course's page, when
// the student agreed to it, or withdraw it.

/** Answers and their mean rating, grouped by `key`, in the order first met. */
export function summarise(days: FeedbackDay[], key: (day: FeedbackDay) => string): { name: string; answers: number; average: string }[] {
  const groups = new Map<string, number[]>();
  for (const day of days) {
    const ratings = groups.get(key(day)) ?? [];
    ratings.push(...day.answers.map((answer) => answer.rating));
    groups.set(key(day), ratings);
  }
  return [...groups].map(([name, ratings]) => ({ name, answers: ratings.length, average: averageOf(ratings) }));
}

function averageOf(ratings: number[]): string {
  if (ratings.length === 0) return 'No answers yet';
  return (Math.round((ratings.reduce((sum, r) => sum + r, 0) * 10) / ratings.length) / 10).toFixed(1);
}

function PublishCell({ answer }: { answer: GivenFeedback }) {
  const [published, setPublished] = useState(answer.published);
  const command = useCommand();
  const id = `publish-${answer.id}`;
  if (!answer.mayPublish) return <span className="muted">Not agreed</span>;
  if (!answer.comment) return <span className="muted">No comment</span>;
  const change = (publish: boolean) =>
    void command.run(async () => {
      await adminPost(apiPath('feedback', answer.id, publish ? 'publish' : 'withdraw'));
      setPublished(publish);
      return '';
    });
  return (
    <span>
      {published ? 'Published ' : ''}
      <button type="button" className="button button-small" disabled={command.busy} aria-describedby={command.error ? `${id}-error` : undefined} onClick={() => change(!published)}>
        {published ? 'Withdraw' : 'Publish'}{' '}
        <span className="visually-hidden">{`${answer.student}’s comment`}</span>
      </button>
      {command.error && <span id={`${id}-error`} role="alert" className="field-error">{command.error}</span>}
    </span>
  );
}

const column = columnsOf<GivenFeedback>();

function DayTable({ day, canPublish }: { day: FeedbackDay; canPublish: boolean }) {
  const columns = useMemo(
    () =>
      column.columns([
        column.accessor('student', { header: 'Student' }),
        column.accessor('rating', { header: 'Rating', cell: (info) => `${info.getValue()} of 5` }),
        column.accessor('comment', { header: 'Comment', enableSorting: false, cell: (info) => info.getValue() || 'No comment' }),
        column.display({
          id: 'publish',
          header: 'On the course page',
          cell: (info) =>
            canPublish ? <PublishCell answer={info.row.original} /> : info.row.original.published ? 'Published' : info.row.original.mayPublish ? 'Agreed' : 'Not agreed',
        }),
      ]),
    [canPublish],
  );
  const tutor = day.tutor ? ` with ${day.tutor}` : '';
  return (
    <section aria-labelledby={`day-${day.sessionId}`} className="feedback-day">
      <h3 id={`day-${day.sessionId}`}>{`${day.courseTitle}, ${formatShortDate(day.date)}${tutor}`}</h3>
      <p>{`${day.answers.length} of ${day.asked} answered; average ${day.average === null ? 'none yet' : day.average.toFixed(1)}`}</p>
      <DataTable
        caption={`Feedback on ${day.courseTitle}, ${formatShortDate(day.date)}`}
        columns={columns}
        rows={day.answers}
        rowId={(answer) => answer.id}
        empty="Nobody has answered yet."
      />
    </section>
  );
}

function Summary({ title, rows }: { title: string; rows: { name: string; answers: number; average: string }[] }) {
  return (
    // A region that scrolls must take the keyboard's focus to be scrolled with it.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="table-scroll" role="region" aria-label={title} tabIndex={0}>
    <table className="feedback-summary">
      <caption>{title}</caption>
      <thead>
        <tr><th scope="col">Name</th><th scope="col">Answers</th><th scope="col">Average rating</th></tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}><th scope="row">{row.name}</th><td>{row.answers}</td><td>{row.average}</td></tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}

export function FeedbackScreen() {
  const staff = useStaff();
  const results = useAdminData<FeedbackResults>('/api/admin/feedback');
  return (
    <>
      <PageHeading>Feedback</PageHeading>
      <RequestView request={results} what="the feedback">
        {({ days }) =>
          days.length === 0 ? (
            <p className="empty">No feedback has been asked for yet: it is asked for when a student is marked as attended.</p>
          ) : (
            <>
              <h2>By course and tutor</h2>
              <Summary title="By course" rows={summarise(days, (day) => day.courseTitle)} />
              <Summary title="By tutor" rows={summarise(days, (day) => day.tutor ?? 'No tutor named')} />
              <h2>By date</h2>
              {days.map((day) => <DayTable key={day.sessionId} day={day} canPublish={can(staff, 'content')} />)}
            </>
          )
        }
      </RequestView>
    </>
  );
}

import { useState, type FormEvent } from 'react';
import { Link } from '../../lib/router';
import type { FeedbackPage as FeedbackData } from '../../generated/FeedbackPage';
import { postJson } from '../../lib/api';
import { formatLongDate } from '../../lib/dates';
import { useAction } from '../../lib/use-action';

// The page of the mail sent after training (decision 034): the student
// rates the day from 1 to 5, may leave a comment and say whether the college
// may publish it. Feedback is given once; the link then only thanks.

const TOKEN = /[?&]token=([0-9a-f]+)/;
const RATINGS = [1, 2, 3, 4, 5] as const;
const RATING_WORDS: Record<(typeof RATINGS)[number], string> = { 1: 'Poor', 2: 'Fair', 3: 'Good', 4: 'Very good', 5: 'Excellent' };

export function FeedbackPage({ page, path }: { page: FeedbackData; path: string }) {
  const token = TOKEN.exec(path)?.[1] ?? '';
  const { busy, error, run: send } = useAction();
  const [sent, setSent] = useState(false);
  const [rating, setRating] = useState<number | null>(null);
  const [missing, setMissing] = useState(false);
  const { asked } = page;

  if (!asked) {
    return (
      <div className="container order-page">
        <h1>This link is not known</h1>
        <p>
          Please use the link in the mail we sent after your training, or <Link to="/contact/">contact us</Link>.
        </p>
      </div>
    );
  }
  if (sent || asked.answered) {
    return (
      <div className="container order-page">
        <h1>Thank you for your feedback</h1>
        <p>{sent ? 'We have your rating and comment: they help us teach every course better.' : 'You have sent your feedback for this day already: it is given once.'}</p>
        <p><Link to={asked.courseUrl}>{`Back to ${asked.courseTitle}`}</Link></p>
      </div>
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (rating === null) {
      setMissing(true);
      return;
    }
    const entry = new FormData(event.currentTarget).get('comment');
    const comment = typeof entry === 'string' ? entry : '';
    const mayPublish = (event.currentTarget.elements.namedItem('mayPublish') as HTMLInputElement | null)?.checked ?? false;
    void send(async () => {
      await postJson('/api/feedback', { token, rating, comment: comment, mayPublish });
      setSent(true);
    });
  }

  const tutor = asked.tutor ? ` with ${asked.tutor}` : '';
  return (
    <div className="container order-page feedback-page">
      <h1>How was your training?</h1>
      <p>{`Hello ${asked.givenName}, thank you for training on ${asked.courseTitle} on ${formatLongDate(asked.date)}${tutor}.`}</p>
      <form onSubmit={submit} noValidate>
        <fieldset className={missing ? 'field segmented rating-choices has-error' : 'field segmented rating-choices'} aria-describedby={missing ? 'rating-error' : undefined}>
          <legend>Your rating, from 1 (poor) to 5 (excellent)</legend>
          {missing && <p id="rating-error" className="field-error">Choose a rating from 1 to 5.</p>}
          {RATINGS.map((value) => (
            <label key={value}>
              <input type="radio" name="rating" value={value} checked={rating === value} onChange={() => { setRating(value); setMissing(false); }} />
              {`${value} – ${RATING_WORDS[value]}`}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="feedback-comment">Your comment (optional)</label>
          <textarea id="feedback-comment" name="comment" rows={5} maxLength={2000} />
        </div>
        <div className="check-field">
          <input id="feedback-publish" type="checkbox" name="mayPublish" />
          <label htmlFor="feedback-publish">The college may publish my comment and first name on the course’s page</label>
        </div>
        {error && <p role="alert" className="form-error">{error}</p>}
        <button type="submit" className="button" aria-disabled={busy}>
          Send feedback
        </button>
      </form>
    </div>
  );
}

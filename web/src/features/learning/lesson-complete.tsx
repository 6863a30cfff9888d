import { useEffect, useId, useRef, useState } from 'react';
import { CourseProgress } from '../../components/course-progress';
import { reveal } from '../../components/ui/reveal';
import type { LessonPage } from '../../generated/LessonPage';
import { CourseCompleted } from './course-completed';
import { markLessonDone, problemOf } from './learning-api';

/**
 * The course's progress under a lesson and the button that completes the
 * lesson. What follows the press takes the focus: "Completed" (the button
 * is gone) or the reason it failed.
 */
export function LessonComplete({ page }: { page: LessonPage }) {
  const id = useId();
  const [done, setDone] = useState(page.done);
  const [percent, setPercent] = useState(page.percent);
  const [completed, setCompleted] = useState<{ certificate: string | null } | null>(null);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState('');
  // Each press answered, so its outcome takes the focus even when its words are the last one's.
  const [answers, setAnswers] = useState(0);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const problemRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (answers > 0) reveal(doneRef.current ?? problemRef.current);
  }, [answers]);

  async function complete() {
    if (sending) return;
    setSending(true);
    setProblem('');
    try {
      const answer = await markLessonDone(page.course.id, page.slug);
      setDone(true);
      setPercent(answer.percent);
      if (answer.complete) setCompleted({ certificate: answer.certificate });
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setSending(false);
      setAnswers((count) => count + 1);
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="lesson-complete">
      <h2 id={`${id}-title`} className="visually-hidden">Your progress</h2>
      {page.course.preview ? (
        <p className="form-note">A student marks the lesson complete here. In a preview nothing is recorded.</p>
      ) : done ? (
        <p ref={doneRef} tabIndex={-1} className="lesson-done">
          <span aria-hidden="true">✓ </span>Completed
        </p>
      ) : (
        <button type="button" className="button" aria-disabled={sending} onClick={() => void complete()}>
          {sending ? 'Saving...' : 'Mark as complete'}
        </button>
      )}
      <p ref={problemRef} role="alert" tabIndex={-1} className="form-error">{problem}</p>
      <CourseProgress percent={percent} label="Course progress" />
      {completed && <CourseCompleted certificate={completed.certificate} />}
    </section>
  );
}

import type { LearnCourse } from '../../generated/LearnCourse';

/**
 * Says, above a course player page that staff open from the back office,
 * that it is a preview of the draft (decision 018): a student who has just
 * started sees the page so, and nothing done here is recorded.
 */
export function PreviewNote({ course }: { course: LearnCourse }) {
  if (!course.preview) return null;
  return (
    <div className="preview-note" role="note" aria-label="Preview">
      <p>
        <strong>Preview of the draft.</strong>
        {' This is how a student who has just started sees this page once the draft is published. Nothing you do here is recorded: quizzes are marked but not counted.'}
      </p>
    </div>
  );
}

import { useId } from 'react';

/**
 * How much of an online course is done (decision 025): a bar with its per
 * cent for assistive technology, and the same in words beside it.
 * `label` names it ('Your progress', or the course's title in a list). The
 * bar is the browser's own, so it is drawn from the server's HTML: the
 * site's style policy refuses inline widths.
 */
export function CourseProgress({ percent, label }: { percent: number; label: string }) {
  const id = useId();
  const value = Math.min(100, Math.max(0, Math.round(percent)));
  const words = `${value}% complete`;
  return (
    <div className="course-progress">
      <span id={`${id}-label`} className="visually-hidden">{label}</span>
      <progress
        className="course-progress-bar" aria-labelledby={`${id}-label`} max={100} value={value}
        aria-valuemin={0} aria-valuemax={100} aria-valuenow={value} aria-valuetext={words}
      />
      <span className="course-progress-text" aria-hidden="true">{words}</span>
    </div>
  );
}

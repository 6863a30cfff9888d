import { useEffect, useRef } from 'react';
import type { LearnCourse } from '../../generated/LearnCourse';
import { reportError } from '../../lib/report-error';
import { sendVisit } from './learning-api';

/**
 * Tells the server once that this lesson was opened, after hydration, so
 * "Continue" comes back here; a staff preview tells nothing. Nothing is
 * shown if it fails: the lesson is there to read all the same.
 */
export function useLessonVisit({ id: courseId, preview }: LearnCourse, slug: string) {
  // The lesson already told: an effect that runs again (React's strict
  // mode, say) sends nothing more.
  const told = useRef('');
  useEffect(() => {
    const lesson = `${courseId}/${slug}`;
    if (preview || told.current === lesson) return;
    told.current = lesson;
    sendVisit(courseId, slug).catch((error: unknown) => reportError(error, { action: 'record a lesson visit', courseId, slug }));
  }, [courseId, slug, preview]);
}

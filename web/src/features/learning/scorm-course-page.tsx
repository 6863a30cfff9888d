import { useCallback, useState } from 'react';
import { CourseProgress } from '../../components/course-progress';
import type { PackageCommitted } from '../../generated/PackageCommitted';
import type { ScormCoursePage as ScormCourseData } from '../../generated/ScormCoursePage';
import { accessLine } from '../../lib/course-access';
import { CourseCompleted } from './course-completed';
import { ScormFrame } from './scorm-frame';

// /learn/{course}/ of a course taught by a SCORM package (decision 026): the
// student's progress and the package, which resumes where they left off.
// The frame opens once the page is in the browser: the package needs
// JavaScript, and its address is the student's own for this sitting.

export function ScormCoursePage({ page }: { page: ScormCourseData }) {
  const { course } = page;
  const [percent, setPercent] = useState(page.percent);
  const [complete, setComplete] = useState(page.complete);
  const [certificate, setCertificate] = useState(page.certificate);
  const committed = useCallback((answer: PackageCommitted) => {
    setPercent(answer.percent);
    setComplete(answer.complete);
    setCertificate(answer.certificate);
  }, []);
  return (
    <div className="container learn-page scorm-course-page">
      <h1>{course.title}</h1>
      <p className="learn-access">{accessLine(page.access)}</p>
      <CourseProgress percent={percent} label="Your progress" />
      <div aria-live="polite">
        {complete ? (
          <CourseCompleted certificate={certificate} />
        ) : (
          <p className="scorm-course-note">
            {page.started ? 'Your course opens where you left off.' : 'Your course opens below. Your progress is saved as you go.'}
          </p>
        )}
      </div>
      <ScormFrame courseId={course.id} title={`${page.packageTitle}: your course`} committed={committed} />
      <noscript>
        <p className="form-error">This course runs in your browser: please turn on JavaScript to study it.</p>
      </noscript>
    </div>
  );
}

import type { ProviderCoursePage as ProviderCourseData } from '../../generated/ProviderCoursePage';
import { accessLine } from '../../lib/course-access';
import { CourseCompleted } from './course-completed';

// /learn/{course}/ of a course a hosted LMS teaches (decision 029). "Open
// your course" is a plain form: the server asks the provider for the
// student's own launch address and sends the browser there, with or
// without JavaScript. A launch that failed comes back here saying so.

export function ProviderCoursePage({ page }: { page: ProviderCourseData }) {
  const { course } = page;
  return (
    <div className="container learn-page provider-course-page">
      <h1>{course.title}</h1>
      <p className="learn-access">{accessLine(page.access)}</p>
      {page.problem && <p className="form-error" role="alert">{page.problem}</p>}
      {page.certificate && <CourseCompleted certificate={page.certificate} />}
      <p>{`Your course is taught on ${page.provider}, the college’s learning platform. It opens there, signed in as you, and keeps your progress.`}</p>
      <form method="post" action={page.openUrl} className="provider-course-open">
        <button type="submit" className="button">{page.certificate ? 'Open your course again' : 'Open your course'}</button>
      </form>
      <p className="learn-access">{`When you complete it on ${page.provider}, your certificate appears here and in your account.`}</p>
    </div>
  );
}

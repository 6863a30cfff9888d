import { Link } from '../../../lib/router';
import { CourseProgress } from '../../../components/course-progress';
import type { AccountData } from '../../../generated/AccountData';
import type { AccountOnlineCourse } from '../../../generated/AccountOnlineCourse';
import { accessLine } from '../../../lib/course-access';

/** One course: where its access stands, how much is done and, while it may be studied, the way in. */
function OnlineCourse({ course }: { course: AccountOnlineCourse }) {
  const active = course.access.state === 'active';
  return (
    <li className="account-course">
      <h3>
        {course.title}
        {course.complete && <> <span className="booking-status booking-status-completed">Completed</span></>}
      </h3>
      <p className="account-course-access">{accessLine(course.access)}</p>
      <CourseProgress percent={course.percent} label={`${course.title}: progress`} />
      {active && course.playerUrl && (
        <Link className="button button-small" to={course.playerUrl}>
          {course.percent > 0 || course.complete ? 'Continue' : 'Start'}
          <span className="visually-hidden">{`: ${course.title}`}</span>
        </Link>
      )}
      {active && !course.playerUrl && (
        <p className="account-course-waiting">
          Its lessons are not published yet. <Link to="/contact/">Contact us</Link> and we will tell you when they open.
        </p>
      )}
      <p className="booking-reference">{course.orderReference ? `Order ${course.orderReference}` : 'Given to you by the college'}</p>
    </li>
  );
}

/** The e-learning courses bought (decision 025): each with its access, its progress and a way in while it lasts. */
export function OnlineCourses({ data }: { data: AccountData }) {
  if (data.onlineCourses.length === 0) {
    return (
      <p>
        You have no online courses yet. <Link to="/courses/elearning/">See our online courses</Link>
      </p>
    );
  }
  return (
    <ul className="account-online-courses">
      {data.onlineCourses.map((course) => <OnlineCourse key={course.courseId} course={course} />)}
    </ul>
  );
}

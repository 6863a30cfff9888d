import { Link } from 'react-router';
import type { AccountData } from '../../../generated/AccountData';

/** The e-learning courses bought, and whether each is finished. */
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
      {data.onlineCourses.map((course) => (
        <li key={course.courseId}>
          {course.title} <span className="tag">{course.complete ? 'Completed' : 'In progress'}</span>{' '}
          <span className="booking-reference">{`Order ${course.orderReference}`}</span>
        </li>
      ))}
    </ul>
  );
}

import type { CourseCard as CourseCardData } from '../generated/CourseCard';
import { Picture } from './ui/image';
import { formatSessionDate } from '../lib/dates';
import { sessionTypeLabel } from '../lib/sessions';
import { Price } from './price';

const CARD_SIZES = '(min-width: 64rem) 300px, (min-width: 40rem) 45vw, 100vw';

export function CourseCard({ course, headingLevel = 3 }: { course: CourseCardData; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="course-card">
      <Picture image={course.image} sizes={CARD_SIZES} maxDisplay={400} className="card-image" decorative />
      <div className="card-body">
        <p className="card-kicker">
          {course.sectionTitle}
          {course.isNew && <span className="tag">New</span>}
          {course.online && <span className="tag">Online</span>}
        </p>
        <Heading className="card-title">
          <a href={course.url}>{course.title}</a>
        </Heading>
        <p className="card-summary">{course.summary}</p>
        <dl className="card-facts">
          {course.duration && (<><dt>Duration</dt><dd>{course.duration}</dd></>)}
          {course.nextSession && (
            <>
              <dt>Next date</dt>
              <dd>{`${formatSessionDate(course.nextSession.date)} · ${sessionTypeLabel(course.nextSession.type)}`}</dd>
            </>
          )}
        </dl>
        <Price price={course.price} wasPrice={course.wasPrice} from={course.priceFrom} />
      </div>
    </article>
  );
}

export function CourseGrid({ courses, headingLevel }: { courses: CourseCardData[]; headingLevel?: 2 | 3 }) {
  return (
    <ul className="card-grid">
      {courses.map((course) => (
        <li key={course.id}>
          <CourseCard course={course} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}

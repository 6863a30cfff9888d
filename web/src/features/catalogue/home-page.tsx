import { Link } from '../../lib/router';
import type { HomePage as HomePageData } from '../../generated/HomePage';
import { Picture } from '../../components/ui/image';
import { formatSessionDate, formatTime } from '../../lib/dates';
import { seatsLeft, sessionTypeLabel } from '../../lib/sessions';
import { formatMoney } from '../../lib/money';
import { CourseGrid } from '../../components/course-card';
import { SectionCards } from './section-cards';

const TRUST_MARKS = [
  { title: 'Regulated qualifications', text: 'VTCT and Ofqual-regulated levels 2 to 7, assessed in our own clinic.' },
  { title: 'Small groups', text: 'No more than eight students to a trainer, with live models on every practical day.' },
  { title: 'Pay your way', text: 'Secure your place with a £100 booking fee, interest-free plans or pay later.' },
  { title: 'Support after you qualify', text: 'Mentoring, refresher places and a community of graduates.' },
];

export function HomePage({ page }: { page: HomePageData }) {
  return (
    <>
      <section className="hero">
        <div className="container hero-grid">
          <div>
            <h1>{page.hero.heading}</h1>
            <p className="lead">{page.hero.text}</p>
            <p className="hero-actions">
              <Link to="/courses/" className="button">Browse courses</Link>
              <Link to="/training-course-calendar/" className="button button-secondary">See training dates</Link>
            </p>
          </div>
          <Picture image={page.hero.image} sizes="(min-width: 64rem) 560px, 100vw" maxDisplay={640} priority className="hero-image" />
        </div>
      </section>

      <section className="container band" aria-labelledby="featured-title">
        <h2 id="featured-title">Featured courses</h2>
        <CourseGrid courses={page.featured} />
      </section>

      <section className="container band" aria-labelledby="sections-title">
        <h2 id="sections-title">Find your course</h2>
        <SectionCards sections={page.sections} />
      </section>

      <section className="container band" aria-labelledby="upcoming-title">
        <h2 id="upcoming-title">Upcoming training dates</h2>
        <ul className="session-list">
          {page.upcoming.map(({ session, courseTitle, courseUrl }) => (
            <li key={session.id}>
              <p className="session-when">
                {formatSessionDate(session.date)}
                <span>{`${formatTime(session.start)} to ${formatTime(session.end)} · ${sessionTypeLabel(session.type)}`}</span>
              </p>
              <p className="session-course"><Link to={courseUrl}>{courseTitle}</Link></p>
              <p className="session-seats">{seatsLeft(session)}</p>
              <p className="session-price">{formatMoney(session.price)}</p>
            </li>
          ))}
        </ul>
        <p><Link to="/training-course-calendar/">See every date in the training calendar</Link></p>
      </section>

      <section className="container band trust" aria-labelledby="trust-title">
        <h2 id="trust-title">Why train with us</h2>
        <ul className="trust-grid">
          {TRUST_MARKS.map((mark) => (
            <li key={mark.title}>
              <h3>{mark.title}</h3>
              <p>{mark.text}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

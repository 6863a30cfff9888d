import { Link } from '../../lib/router';
import type { CoursePage as CourseData } from '../../generated/CoursePage';
import { Picture } from '../../components/ui/image';
import { Prose } from '../../components/prose';
import { CourseGrid } from '../../components/course-card';
import { Price } from '../../components/price';
import { AddToBasket } from './add-to-basket';
import { CourseReviews } from './course-reviews';
import { FullDates } from './full-dates';

export function CoursePage({ course }: { course: CourseData }) {
  const [image, ...moreImages] = course.images;
  return (
    <div className="container course-page">
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <ol>
          <li><Link to="/">Home</Link></li>
          <li><Link to="/courses/">Courses</Link></li>
          <li><Link to={`/courses/${course.sectionSlug}/`}>{course.sectionTitle}</Link></li>
          <li aria-current="page">{course.title}</li>
        </ol>
      </nav>
      <div className="course-top">
        <div className="course-intro">
          <h1>{course.title}</h1>
          <p className="lead">{course.summary}</p>
          {image && <Picture image={image} sizes="(min-width: 64rem) 640px, 100vw" maxDisplay={720} priority className="course-image" />}
        </div>
        <aside className="course-buy" aria-labelledby="book-title">
          <h2 id="book-title">{course.online ? 'Buy this course' : 'Book this course'}</h2>
          <Price price={course.pricing.unit_amount} wasPrice={course.wasPrice} from={course.priceFrom} className="price price-large" />
          {!course.online && (
            <p className="fee-note">Secure your place with a £100 booking fee; the balance is due 14 days before training, or when you book if training is sooner.</p>
          )}
          <AddToBasket course={course} />
          {!course.online && <FullDates sessions={course.fullSessions} />}
        </aside>
      </div>

      <div className="course-details">
        <section aria-labelledby="facts-title">
          <h2 id="facts-title">At a glance</h2>
          <dl className="facts">
            <dt>Duration</dt><dd>{course.duration}</dd>
            <dt>Level</dt><dd>{course.level}</dd>
            <dt>Accreditation</dt><dd>{course.accreditation}</dd>
            <dt>Prerequisites</dt><dd>{course.prerequisites}</dd>
            <dt>Delivery</dt><dd>{course.online ? 'Online, at your own pace' : 'In person at the academy'}</dd>
          </dl>
        </section>

        {course.entryRequirements && (
          <section id="entry-requirements" aria-labelledby="entry-title">
            <h2 id="entry-title">Entry requirements</h2>
            <p>{course.prerequisites}</p>
            {course.entryOnlineCourse && (
              <p>
                Completing our online course <a href={course.entryOnlineCourse.link}>{course.entryOnlineCourse.text}</a> meets the qualification
                they ask for: we see its certificate on your account, so you need not send proof of it.
              </p>
            )}
            <p>
              When you book, you confirm that you meet them. Before your training, send us proof: a copy of your certificate, or your professional
              registration, from the <a href="/account/documents/">Documents page of your account</a>. We will call you if anything is missing.
            </p>
          </section>
        )}

        {course.includes.length > 0 && (
          <section aria-labelledby="includes-title">
            <h2 id="includes-title">What is included</h2>
            <ul className="ticks">{course.includes.map((item) => <li key={item}>{item}</li>)}</ul>
          </section>
        )}
        {course.whatToBring.length > 0 && (
          <section aria-labelledby="bring-title">
            <h2 id="bring-title">What to bring</h2>
            <ul>{course.whatToBring.map((item) => <li key={item}>{item}</li>)}</ul>
          </section>
        )}

        <section aria-labelledby="about-title">
          <h2 id="about-title">About this course</h2>
          <Prose html={course.descriptionHtml} />
        </section>

        {moreImages.length > 0 && (
          <ul className="gallery" aria-label="More pictures">
            {moreImages.map((more) => (
              <li key={more.url}><Picture image={more} sizes="(min-width: 64rem) 300px, 50vw" maxDisplay={400} /></li>
            ))}
          </ul>
        )}

        {course.faqs.length > 0 && (
          <section aria-labelledby="faq-title">
            <h2 id="faq-title">Frequently asked questions</h2>
            {course.faqs.map((faq) => (
              <details key={faq.question} className="faq">
                <summary>{faq.question}</summary>
                <p>{faq.answer}</p>
              </details>
            ))}
          </section>
        )}

        <CourseReviews reviews={course.reviews} />
      </div>

      {course.related.length > 0 && (
        <section aria-labelledby="related-title" className="band">
          <h2 id="related-title">Related courses</h2>
          <CourseGrid courses={course.related} />
        </section>
      )}
    </div>
  );
}

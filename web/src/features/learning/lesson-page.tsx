import { Link } from '../../lib/router';
import { Prose } from '../../components/prose';
import type { LessonPage as LessonData } from '../../generated/LessonPage';
import { LessonComplete } from './lesson-complete';
import { LessonDownloads, LessonVideo } from './lesson-media';
import { PreviewNote } from './preview-note';
import { StepLinks } from './step-links';
import { useLessonVisit } from './use-lesson-visit';

// /learn/{course}/{lesson}/ (decision 025): one lesson, its HTML rendered
// and sanitised by the server like every article. Opening it tells the
// server where to continue; completing it is the student's own press.

export function LessonPage({ page }: { page: LessonData }) {
  const { course } = page;
  useLessonVisit(course, page.slug);
  return (
    <div className="container learn-page lesson-page">
      <PreviewNote course={course} />
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <ol>
          <li><Link to={course.playerUrl}>{course.title}</Link></li>
          <li>{page.module}</li>
          <li aria-current="page">{page.title}</li>
        </ol>
      </nav>
      <article>
        <h1>{page.title}</h1>
        <p className="post-meta">{`${page.minutes} min read`}</p>
        {page.video && <LessonVideo video={page.video} title={page.title} />}
        <Prose html={page.html} />
        <LessonDownloads downloads={page.downloads} />
      </article>
      <LessonComplete page={page} />
      <StepLinks previous={page.previous} next={page.next} />
    </div>
  );
}

import { Link } from '../../lib/router';
import type { LearnPage as LearnData } from '../../generated/LearnPage';
import type { ModuleProgress } from '../../generated/ModuleProgress';
import type { StepEntry } from '../../generated/StepEntry';
import { CourseProgress } from '../../components/course-progress';
import { accessLine } from '../../lib/course-access';
import { DoneMark, stepNote } from './step-mark';
import { CourseCompleted } from './course-completed';
import { PreviewNote } from './preview-note';

// /learn/{course}/ (decision 025): the course's contents with the
// student's progress, and the step to continue with. Personal: the server
// renders it only for a student with access.

function Step({ step }: { step: StepEntry }) {
  const note = stepNote(step);
  return (
    <li className={step.done ? 'learn-step is-done' : 'learn-step'}>
      <Link to={step.url}>{step.title}</Link>
      {note && <span className="learn-step-note">{note}</span>}
      <DoneMark step={step} />
    </li>
  );
}

/** A module's progress in words: '2 of 4 lessons completed · quiz passed'. */
function moduleSummary(progress: ModuleProgress): string {
  const lessons = `${progress.lessonsCompleted} of ${progress.lessons} ${progress.lessons === 1 ? 'lesson' : 'lessons'} completed`;
  if (progress.quizPassed === null) return lessons;
  return `${lessons} · quiz ${progress.quizPassed ? 'passed' : 'not passed yet'}`;
}

function Resume({ page }: { page: LearnData }) {
  const { progress, resume } = page;
  if (progress.complete) {
    return <CourseCompleted certificate={page.certificate} />;
  }
  if (!resume) return null;
  const started = progress.percent > 0 || progress.modules.some((module) => module.status !== 'notStarted');
  return (
    <div className="learn-resume">
      <Link className="button" to={resume.url}>{started ? 'Continue' : 'Start the course'}</Link>
      <p className="learn-resume-step">{`${started ? 'Next' : 'First'}: ${resume.title}`}</p>
    </div>
  );
}

export function LearnPage({ page }: { page: LearnData }) {
  const { course, progress, modules, assessment } = page;
  return (
    <div className="container learn-page">
      <PreviewNote course={course} />
      <h1>{course.title}</h1>
      <p className="learn-access">{accessLine(page.access)}</p>
      <CourseProgress percent={progress.percent} label="Your progress" />
      <Resume page={page} />
      <section aria-labelledby="learn-contents-title">
        <h2 id="learn-contents-title">Course contents</h2>
        <ol className="learn-modules">
          {modules.map((module, index) => {
            const state = progress.modules[index];
            return (
              <li key={`${index}-${module.title}`} className="learn-module">
                <h3>{module.title}</h3>
                {state && <p className="learn-module-summary">{moduleSummary(state)}</p>}
                <ol className="learn-steps">
                  {module.steps.map((step) => <Step key={step.slug} step={step} />)}
                </ol>
              </li>
            );
          })}
        </ol>
      </section>
      {assessment && (
        <section aria-labelledby="learn-assessment-title" className="learn-assessment">
          <h2 id="learn-assessment-title">Final assessment</h2>
          <ul className="learn-steps">
            <Step step={assessment} />
          </ul>
        </section>
      )}
    </div>
  );
}

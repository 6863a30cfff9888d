import { z } from 'zod';
import type { Curriculum } from '../../../../generated/Curriculum';
import { SLUG } from '../../../lib/form-rules';
import { curriculumOf, wholeNumberOf, type CurriculumValues, type LessonValues, type QuestionValues, type QuizValues } from './curriculum-values';

// What the form checks before sending a curriculum: the cheap rules of the
// server's `learning::curriculum::check`, in its words, each beside its
// field (a path below `learning`, as the server's 422 names it). The server
// checks everything again, file names and video ids included.

type Path = (string | number)[];

export interface CurriculumProblem {
  path: Path;
  message: string;
}

const MAX_ACCESS_MONTHS = 60;

function checkSlug(problems: CurriculumProblem[], slugs: Set<string>, path: Path, typed: string) {
  const slug = typed.trim();
  if (!slug) problems.push({ path, message: 'Give it a slug of lower-case letters, digits and single hyphens.' });
  else if (!SLUG.test(slug)) problems.push({ path, message: `'${slug}' must be lower-case letters, digits and single hyphens.` });
  else if (slugs.has(slug)) problems.push({ path, message: `'${slug}' is used twice.` });
  else slugs.add(slug);
}

function checkTitle(problems: CurriculumProblem[], path: Path, title: string) {
  if (!title.trim()) problems.push({ path, message: 'Give it a title.' });
}

function checkLesson(problems: CurriculumProblem[], slugs: Set<string>, at: Path, lesson: LessonValues) {
  checkSlug(problems, slugs, [...at, 'slug'], lesson.slug);
  checkTitle(problems, [...at, 'title'], lesson.title);
  if (!wholeNumberOf(lesson.minutes)) problems.push({ path: [...at, 'minutes'], message: 'Say how many minutes it takes.' });
  if (!lesson.body.trim() && lesson.video.source === 'none') problems.push({ path: [...at, 'body'], message: 'Add its text or a video.' });
}

function checkQuestion(problems: CurriculumProblem[], at: Path, question: QuestionValues) {
  if (!question.prompt.trim()) problems.push({ path: [...at, 'prompt'], message: 'Write the question.' });
  question.choices.forEach((choice, index) => {
    if (!choice.text.trim()) problems.push({ path: [...at, 'choices', index, 'text'], message: `Choice ${index + 1} has no text.` });
  });
  const correct = question.choices.filter((choice) => choice.correct).length;
  if (question.kind === 'single' && correct !== 1) {
    problems.push({ path: [...at, 'choices'], message: `A single-choice question needs exactly one correct choice, not ${correct}.` });
  } else if (question.kind === 'multiple' && correct === 0) {
    problems.push({ path: [...at, 'choices'], message: 'Mark at least one choice correct.' });
  }
}

function checkQuiz(problems: CurriculumProblem[], slugs: Set<string>, at: Path, quiz: QuizValues) {
  checkSlug(problems, slugs, [...at, 'slug'], quiz.slug);
  checkTitle(problems, [...at, 'title'], quiz.title);
  const mark = wholeNumberOf(quiz.pass_mark);
  if (mark === null || mark < 1 || mark > 100) {
    problems.push({ path: [...at, 'pass_mark'], message: `The pass mark must be 1 to 100 per cent, not ${quiz.pass_mark.trim() || 'blank'}.` });
  }
  const attempts = quiz.max_attempts.trim();
  if (attempts && !wholeNumberOf(attempts)) problems.push({ path: [...at, 'max_attempts'], message: 'Allow at least one attempt, or no limit.' });
  if (quiz.questions.length === 0) problems.push({ path: [...at, 'questions'], message: 'Add at least one question.' });
  quiz.questions.forEach((question, index) => checkQuestion(problems, [...at, 'questions', index], question));
}

/** Every problem the form can see, in the order the server lists them. */
export function curriculumProblems(values: CurriculumValues): CurriculumProblem[] {
  const problems: CurriculumProblem[] = [];
  const slugs = new Set<string>();
  const months = wholeNumberOf(values.access_months);
  if (months === null || months < 1 || months > MAX_ACCESS_MONTHS) {
    problems.push({ path: ['access_months'], message: `Access must last 1 to ${MAX_ACCESS_MONTHS} months, not ${values.access_months.trim() || 'blank'}.` });
  }
  if (values.modules.length === 0) problems.push({ path: ['modules'], message: 'Add at least one module.' });
  values.modules.forEach((module, index) => {
    const at = ['modules', index];
    checkTitle(problems, [...at, 'title'], module.title);
    if (module.lessons.length === 0) problems.push({ path: [...at, 'lessons'], message: 'Add at least one lesson.' });
    module.lessons.forEach((lesson, number) => checkLesson(problems, slugs, [...at, 'lessons', number], lesson));
    if (module.quiz) checkQuiz(problems, slugs, [...at, 'quiz'], module.quiz);
  });
  if (values.assessment) checkQuiz(problems, slugs, ['assessment'], values.assessment);
  return problems;
}

/** The course form's `learning`: its values checked, into the body's curriculum (none: no key). */
export const curriculumRule = () =>
  z.custom<CurriculumValues | null>(() => true).transform((values, context): Curriculum | undefined => {
    if (!values) return undefined;
    const problems = curriculumProblems(values);
    if (problems.length === 0) return curriculumOf(values);
    for (const { path, message } of problems) context.addIssue({ code: 'custom', message, path });
    return z.NEVER;
  });

const PARTS: Record<string, string> = {
  access_months: 'access',
  modules: 'modules',
  lessons: 'lessons',
  slug: 'slug',
  title: 'title',
  minutes: 'minutes',
  body: 'text',
  video: 'video',
  pass_mark: 'pass mark',
  max_attempts: 'attempts',
  questions: 'questions',
  prompt: 'question',
  key: 'key',
  choices: 'choices',
};

/**
 * Where a path below `learning` is, as staff count: `modules.1.lessons.0.slug`
 * is 'Module 2, lesson 1, slug'; for the error summary.
 */
export function placeOf(path: string): string {
  const parts = path.split('.');
  const words: string[] = [];
  for (let at = 0; at < parts.length; at += 1) {
    const part = parts[at] ?? '';
    const next = Number(parts[at + 1]);
    const numbered = parts[at + 1] !== undefined && Number.isInteger(next);
    if (part === 'modules' && numbered) words.push(`Module ${next + 1}`);
    else if (part === 'lessons' && numbered) words.push(`lesson ${next + 1}`);
    else if (part === 'questions' && numbered) words.push(`question ${next + 1}`);
    else if (part === 'choices' && numbered) words.push(`choice ${next + 1}`);
    else if (part === 'downloads' && numbered) words.push(`download ${next + 1}`);
    else if (part === 'quiz') words.push('quiz');
    else if (part === 'assessment') words.push('Final assessment');
    else if (!Number.isInteger(Number(part))) words.push(PARTS[part] ?? part);
    if (numbered) at += 1;
  }
  const text = words.join(', ').replace(/, quiz/g, ' quiz');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

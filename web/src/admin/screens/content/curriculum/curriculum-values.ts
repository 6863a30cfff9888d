import type { Curriculum } from '../../../../generated/Curriculum';
import type { Download } from '../../../../generated/Download';
import type { Lesson } from '../../../../generated/Lesson';
import type { Module } from '../../../../generated/Module';
import type { Question } from '../../../../generated/Question';
import type { QuestionKind } from '../../../../generated/QuestionKind';
import type { Quiz } from '../../../../generated/Quiz';
import type { Video } from '../../../../generated/Video';

// An online course's lessons and quizzes (decision 025) as the course form
// holds them: numbers as typed, a video as its source and one text, a
// question's and a choice's key kept as they were made (staff never type
// them). `curriculumValues` and `curriculumOf` turn a body into values and
// back without changing anything that was not edited.

export interface ChoiceValues {
  key: string;
  text: string;
  correct: boolean;
}

export interface QuestionValues {
  key: string;
  prompt: string;
  kind: QuestionKind;
  choices: ChoiceValues[];
  explanation: string;
}

export interface QuizValues {
  slug: string;
  title: string;
  pass_mark: string;
  /** Blank: as many attempts as a student likes. */
  max_attempts: string;
  questions: QuestionValues[];
  /** Made in this form: its slug follows its title until staff type one. */
  fresh?: true;
}

export type VideoSource = 'none' | Video['source'];

export interface LessonValues {
  slug: string;
  title: string;
  minutes: string;
  body: string;
  /** The uploaded file's name, or the video host's id. */
  video: { source: VideoSource; value: string };
  downloads: Download[];
  /** Made in this form: its slug follows its title until staff type one. */
  fresh?: true;
}

export interface ModuleValues {
  title: string;
  lessons: LessonValues[];
  quiz: QuizValues | null;
}

export interface CurriculumValues {
  access_months: string;
  modules: ModuleValues[];
  assessment: QuizValues | null;
}

const questionValues = (question: Question): QuestionValues => ({
  key: question.key,
  prompt: question.prompt,
  kind: question.kind,
  choices: question.choices.map((choice) => ({ ...choice })),
  explanation: question.explanation ?? '',
});

const quizValues = (quiz: Quiz): QuizValues => ({
  slug: quiz.slug,
  title: quiz.title,
  pass_mark: String(quiz.pass_mark),
  max_attempts: quiz.max_attempts == null ? '' : String(quiz.max_attempts),
  questions: quiz.questions.map(questionValues),
});

const videoValue = (video: Video | undefined): LessonValues['video'] => {
  if (!video) return { source: 'none', value: '' };
  return video.source === 'upload' ? { source: 'upload', value: video.file } : { source: video.source, value: video.id };
};

const lessonValues = (lesson: Lesson): LessonValues => ({
  slug: lesson.slug,
  title: lesson.title,
  minutes: String(lesson.minutes),
  body: lesson.body,
  video: videoValue(lesson.video),
  downloads: lesson.downloads.map((download) => ({ ...download })),
});

/** The form's values of a course's curriculum; null when it has none. */
export function curriculumValues(curriculum: Curriculum | undefined): CurriculumValues | null {
  if (!curriculum) return null;
  return {
    access_months: String(curriculum.access_months),
    modules: curriculum.modules.map((module) => ({ title: module.title, lessons: module.lessons.map(lessonValues), quiz: module.quiz ? quizValues(module.quiz) : null })),
    assessment: curriculum.assessment ? quizValues(curriculum.assessment) : null,
  };
}

/** A whole number typed, or null when it is not one. */
export const wholeNumberOf = (typed: string): number | null => (/^\d{1,9}$/.test(typed.trim()) ? Number(typed.trim()) : null);

function videoOf({ source, value }: LessonValues['video']): Video | undefined {
  const typed = value.trim();
  if (source === 'none') return undefined;
  return source === 'upload' ? { source, file: typed } : { source, id: typed };
}

/** A download left wholly blank is dropped, as an empty row of a list is. */
const downloadsOf = (downloads: Download[]) =>
  downloads.map((download) => ({ title: download.title.trim(), file: download.file.trim() })).filter((download) => download.title || download.file);

function quizOf(quiz: QuizValues): Quiz {
  const attempts = wholeNumberOf(quiz.max_attempts);
  return {
    slug: quiz.slug.trim(),
    title: quiz.title.trim(),
    pass_mark: wholeNumberOf(quiz.pass_mark) ?? 0,
    ...(attempts === null ? {} : { max_attempts: attempts }),
    questions: quiz.questions.map((question) => {
      const explanation = question.explanation.trim();
      return {
        key: question.key,
        prompt: question.prompt.trim(),
        kind: question.kind,
        choices: question.choices.map((choice) => ({ key: choice.key, text: choice.text.trim(), correct: choice.correct })),
        ...(explanation ? { explanation } : {}),
      };
    }),
  };
}

function lessonOf(lesson: LessonValues): Lesson {
  const video = videoOf(lesson.video);
  return {
    slug: lesson.slug.trim(),
    title: lesson.title.trim(),
    minutes: wholeNumberOf(lesson.minutes) ?? 0,
    // Markdown as typed: its line breaks are its own.
    body: lesson.body,
    ...(video ? { video } : {}),
    downloads: downloadsOf(lesson.downloads),
  };
}

/** The curriculum the values make (checked by `curriculumProblems` first). */
export function curriculumOf(values: CurriculumValues): Curriculum {
  return {
    access_months: wholeNumberOf(values.access_months) ?? 0,
    modules: values.modules.map((module): Module => ({ title: module.title.trim(), lessons: module.lessons.map(lessonOf), ...(module.quiz ? { quiz: quizOf(module.quiz) } : {}) })),
    ...(values.assessment ? { assessment: quizOf(values.assessment) } : {}),
  };
}

/** The first of `taken`'s kind not taken yet: `q4` after `q1`–`q3`. */
function freshKey(prefix: string, taken: readonly string[]): string {
  for (let number = taken.length + 1; ; number += 1) {
    const key = `${prefix}${number}`;
    if (!taken.includes(key)) return key;
  }
}

/** A new choice of a question whose choices are `others`: its key is made here, once. */
export const blankChoice = (others: readonly ChoiceValues[]): ChoiceValues => ({
  key: freshKey('c', others.map((choice) => choice.key)),
  text: '',
  correct: false,
});

/** A new question of a quiz whose questions are `others`, with two choices to fill in. */
export function blankQuestion(others: readonly QuestionValues[]): QuestionValues {
  const first = blankChoice([]);
  return {
    key: freshKey('q', others.map((question) => question.key)),
    prompt: '',
    kind: 'single',
    choices: [first, blankChoice([first])],
    explanation: '',
  };
}

export const blankQuiz = (): QuizValues => ({ slug: '', title: '', pass_mark: '80', max_attempts: '', questions: [blankQuestion([])], fresh: true });

export const blankLesson = (): LessonValues => ({ slug: '', title: '', minutes: '', body: '', video: { source: 'none', value: '' }, downloads: [], fresh: true });

/** A title as a slug: 'The cell & its parts' is 'the-cell-its-parts'. */
export const slugOf = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');

export const blankModule = (): ModuleValues => ({ title: '', lessons: [blankLesson()], quiz: null });

/** A course's first lessons: one module of one lesson, for a year's access. */
export const blankCurriculum = (): CurriculumValues => ({ access_months: '12', modules: [blankModule()], assessment: null });

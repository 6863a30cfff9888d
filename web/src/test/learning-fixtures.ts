import type { LearnCourse } from '../generated/LearnCourse';
import type { LearnPage } from '../generated/LearnPage';
import type { LessonPage } from '../generated/LessonPage';
import type { QuizPage } from '../generated/QuizPage';
import type { StepEntry } from '../generated/StepEntry';

// An online course as the course player's pages carry it (decision 025):
// two modules of lessons, a module quiz and a final assessment.

export const course: LearnCourse = {
  id: 'c-lash', title: 'Lash Lift Online', playerUrl: '/learn/c-lash/', catalogueUrl: '/courses/elearning/lash-lift-online/', preview: false,
};

const step = (slug: string, title: string, change: Partial<StepEntry> = {}): StepEntry => ({
  slug, title, kind: 'lesson', url: `/learn/c-lash/${slug}/`, minutes: 6, done: false, ...change,
});

export const welcome = step('welcome', 'Welcome to the course', { done: true, minutes: 4 });
export const anatomy = step('lash-anatomy', 'Lash anatomy');
export const moduleQuiz = step('module-1-quiz', 'Module 1 quiz', { kind: 'quiz', minutes: null, done: true });
export const aftercare = step('aftercare', 'Aftercare');
export const assessment = step('final-assessment', 'Final assessment', { kind: 'quiz', minutes: null });

export const learn: LearnPage = {
  course,
  access: { state: 'active', until: '2027-03-10' },
  progress: {
    percent: 40, complete: false, resume: 'lash-anatomy',
    modules: [
      { title: 'Getting started', lessons: 2, lessonsCompleted: 1, quizPassed: true, status: 'inProgress' },
      { title: 'Aftercare', lessons: 1, lessonsCompleted: 0, quizPassed: null, status: 'notStarted' },
    ],
  },
  modules: [
    { title: 'Getting started', steps: [welcome, anatomy, moduleQuiz] },
    { title: 'Aftercare', steps: [aftercare] },
  ],
  assessment,
  resume: anatomy,
  certificate: null,
};

export const lesson: LessonPage = {
  course, module: 'Getting started', slug: 'lash-anatomy', title: 'Lash anatomy', minutes: 6,
  html: '<p>The lash grows in <strong>three</strong> phases.</p>',
  video: null, downloads: [], done: false, previous: welcome, next: moduleQuiz, percent: 40,
};

export const quiz: QuizPage = {
  course,
  module: 'Getting started',
  quiz: {
    slug: 'module-1-quiz', title: 'Module 1 quiz', passMark: 70, maxAttempts: 3,
    questions: [
      { key: 'phases', prompt: 'How many phases does a lash grow in?', kind: 'single', choices: [{ key: 'a', text: 'Two' }, { key: 'b', text: 'Three' }] },
      {
        key: 'tools', prompt: 'Which of these do you need?', kind: 'multiple',
        choices: [{ key: 'shield', text: 'Silicone shields' }, { key: 'glue', text: 'Lash glue' }, { key: 'wax', text: 'Hot wax' }],
      },
    ],
  },
  attemptsUsed: 0, attemptsLeft: 3, bestScore: null, passed: false, next: aftercare, attemptsUrl: '/api/learn/c-lash/quizzes/module-1-quiz/attempts',
};

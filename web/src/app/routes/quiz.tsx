import { QuizPage } from '../../features/learning/quiz-page';
import type { RouteProps } from '../route-table';

// Keyed by the quiz, so another quiz starts with no answers.
export default function QuizRoute({ page }: RouteProps<'quiz'>) {
  return <QuizPage key={`${page.course.id}/${page.quiz.slug}`} page={page} />;
}

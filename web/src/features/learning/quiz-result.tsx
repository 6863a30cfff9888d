import { useEffect, useRef } from 'react';
import { Link } from '../../lib/router';
import { reveal } from '../../components/ui/reveal';
import type { Answers } from '../../generated/Answers';
import type { QuizPage } from '../../generated/QuizPage';
import type { AttemptMarked } from '../../generated/AttemptMarked';
import { CourseCompleted } from './course-completed';

/** 'You have 2 attempts left.', or nothing when attempts are not limited. */
export function attemptsLeftLine(left: number | null): string {
  if (left === null) return '';
  if (left === 0) return 'You have no attempts left.';
  return `You have ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`;
}

/** The step after a passed quiz, or the course's contents when it was the last. */
export function NextStep({ page }: { page: QuizPage }) {
  return page.next ? (
    <Link className="button" to={page.next.url}>{`Next: ${page.next.title}`}</Link>
  ) : (
    <Link className="button" to={page.course.playerUrl}>Back to the course contents</Link>
  );
}

interface QuizResultProps {
  page: QuizPage;
  marked: AttemptMarked;
  answers: Answers;
  onRetry: () => void;
}

/**
 * An attempt as the server marked it: the score, whether it passed, and
 * each question right or wrong with its explanation. Its heading takes the
 * focus when it appears.
 */
export function QuizResult({ page, marked, answers, onRetry }: QuizResultProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => reveal(heading.current), []);
  const { quiz } = page;
  const choiceText = (question: string, choice: string) =>
    quiz.questions.find((q) => q.key === question)?.choices.find((c) => c.key === choice)?.text ?? choice;

  return (
    <section aria-labelledby="quiz-result-title" className={marked.passed ? 'quiz-result is-passed' : 'quiz-result'}>
      <h2 id="quiz-result-title" ref={heading} tabIndex={-1}>{marked.passed ? 'You passed' : 'You did not pass this time'}</h2>
      <p className="quiz-score">{`You scored ${marked.score}%. The pass mark is ${quiz.passMark}%.`}</p>
      <ol className="quiz-marks">
        {marked.results.map((result, index) => {
          const question = quiz.questions.find((q) => q.key === result.key);
          const chosen = (answers[result.key] ?? []).map((choice) => choiceText(result.key, choice));
          return (
            <li key={result.key} className={result.correct ? 'quiz-mark is-correct' : 'quiz-mark is-incorrect'}>
              <p className="quiz-mark-prompt">{`Question ${index + 1}: ${question?.prompt ?? ''}`}</p>
              <p>{`Your answer: ${chosen.join(', ') || 'none'}`}</p>
              <p className="quiz-mark-verdict">
                <span aria-hidden="true">{result.correct ? '✓ ' : '✗ '}</span>
                {result.correct ? 'Correct' : 'Incorrect'}
              </p>
              {result.explanation && <p className="quiz-mark-explanation">{result.explanation}</p>}
            </li>
          );
        })}
      </ol>
      {marked.complete && <CourseCompleted certificate={marked.certificate} />}
      {marked.passed ? (
        <NextStep page={page} />
      ) : marked.attemptsLeft === 0 ? (
        <p>
          You have used all your attempts at this quiz. <Link to="/contact/">Contact us</Link> and we will help.
        </p>
      ) : (
        <>
          {marked.attemptsLeft !== null && <p>{attemptsLeftLine(marked.attemptsLeft)}</p>}
          <button type="button" className="button" onClick={onRetry}>Try again</button>
        </>
      )}
    </section>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from '../../lib/router';
import { reveal } from '../../components/ui/reveal';
import type { Answers } from '../../generated/Answers';
import type { QuizPage as QuizData } from '../../generated/QuizPage';
import type { AttemptMarked } from '../../generated/AttemptMarked';
import { problemOf, submitAttempt } from './learning-api';
import { choiceId, QuizQuestions } from './quiz-questions';
import { PreviewNote } from './preview-note';
import { attemptsLeftLine, NextStep, QuizResult } from './quiz-result';

// /learn/{course}/{quiz}/ (decision 025): a module's quiz or the final
// assessment. The page has the questions and never their answers: what was
// chosen goes to the server as it is, and the server marks it, refuses
// unanswered questions (without counting an attempt) and counts attempts.

export function QuizPage({ page }: { page: QuizData }) {
  const { course, quiz } = page;
  const id = useId();
  const [answers, setAnswers] = useState<Answers>({});
  const [marked, setMarked] = useState<AttemptMarked | null>(null);
  const [attemptsLeft, setAttemptsLeft] = useState(page.attemptsLeft);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState('');
  // Each refusal takes the focus to its message, even when its words are the last one's.
  const [refusals, setRefusals] = useState(0);
  const [retries, setRetries] = useState(0);
  const problemRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (refusals > 0) reveal(problemRef.current);
  }, [refusals]);
  useEffect(() => {
    const first = quiz.questions[0];
    if (retries > 0 && first?.choices[0]) reveal(document.getElementById(choiceId(id, first.key, first.choices[0].key)));
  }, [retries, id, quiz.questions]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setProblem('');
    try {
      const sent = Object.fromEntries(quiz.questions.map((question) => [question.key, answers[question.key] ?? []]));
      const answer = await submitAttempt(page.attemptsUrl, sent);
      setMarked(answer);
      setAttemptsLeft(answer.attemptsLeft);
    } catch (error) {
      setProblem(problemOf(error));
      setRefusals((count) => count + 1);
    } finally {
      setSending(false);
    }
  }

  function retry() {
    setAnswers({});
    setMarked(null);
    setRetries((count) => count + 1);
  }

  return (
    <div className="container learn-page quiz-page">
      <PreviewNote course={course} />
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <ol>
          <li><Link to={course.playerUrl}>{course.title}</Link></li>
          {page.module && <li>{page.module}</li>}
          <li aria-current="page">{quiz.title}</li>
        </ol>
      </nav>
      <h1>{quiz.title}</h1>
      <ul className="quiz-facts">
        <li>{`Pass mark: ${quiz.passMark}%`}</li>
        <li>{attemptsLeft === null ? 'You can try as many times as you need.' : attemptsLeftLine(attemptsLeft)}</li>
        {page.bestScore !== null && <li>{`Your best score so far: ${page.bestScore}%`}</li>}
      </ul>
      {page.passed && !marked && (
        <div className="quiz-passed">
          <p className="form-success">You have passed this quiz.</p>
          <NextStep page={page} />
        </div>
      )}
      {marked ? (
        <QuizResult page={page} marked={marked} answers={answers} onRetry={retry} />
      ) : attemptsLeft === 0 ? (
        <p>
          You have used all your attempts at this quiz. <Link to="/contact/">Contact us</Link> and we will help.
        </p>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`} className="quiz-form">
          <h2 id={`${id}-title`} className="visually-hidden">{`Questions: ${quiz.title}`}</h2>
          <QuizQuestions
            prefix={id} questions={quiz.questions} answers={answers}
            onChange={(key, chosen) => setAnswers((current) => ({ ...current, [key]: chosen }))}
          />
          <p ref={problemRef} role="alert" tabIndex={-1} className="form-error">{problem}</p>
          <button type="submit" className="button" aria-disabled={sending}>{sending ? 'Marking your answers...' : 'Submit answers'}</button>
        </form>
      )}
    </div>
  );
}

import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '../../test/memory-router';
import { describe, expect, it, vi } from 'vitest';
import type { QuizPage as QuizData } from '../../generated/QuizPage';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { quiz } from '../../test/learning-fixtures';
import { QuizPage } from './quiz-page';

const ATTEMPT = 'POST /api/learn/c-lash/quizzes/module-1-quiz/attempts';

const failed = {
  score: 50, passed: false, attemptsUsed: 1, attemptsLeft: 2, complete: false, certificate: null,
  results: [
    { key: 'phases', correct: true, explanation: null },
    { key: 'tools', correct: false, explanation: 'Shields and glue: wax has no place near the eyes.' },
  ],
};
const passed = { ...failed, score: 100, passed: true, attemptsUsed: 2, attemptsLeft: 1, results: failed.results.map((result) => ({ ...result, correct: true })) };

function renderQuiz(attempt: Answer, page: QuizData = quiz) {
  const api = stubApi({ [ATTEMPT]: attempt });
  render(
    <MemoryRouter>
      <QuizPage page={page} />
    </MemoryRouter>,
  );
  return api;
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Submit answers' }));

async function answer() {
  await userEvent.click(screen.getByRole('radio', { name: 'Three' }));
  await userEvent.click(screen.getByRole('checkbox', { name: 'Silicone shields' }));
  await userEvent.click(screen.getByRole('checkbox', { name: 'Hot wax' }));
}

describe('QuizPage', () => {
  it('asks each question in its own group: one answer by radio button, several by boxes', () => {
    renderQuiz(() => jsonResponse(201, failed));
    expect(screen.getByRole('heading', { level: 1, name: 'Module 1 quiz' })).toBeInTheDocument();
    expect(screen.getByText('Pass mark: 70%')).toBeInTheDocument();
    expect(screen.getByText('You have 3 attempts left.')).toBeInTheDocument();
    const one = screen.getByRole('group', { name: 'Question 1 How many phases does a lash grow in?' });
    expect(within(one).getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual(['a', 'b']);
    const several = screen.getByRole('group', { name: 'Question 2 Which of these do you need? Choose all that apply' });
    expect(within(several).getAllByRole('checkbox')).toHaveLength(3);
  });

  it('sends the choices by question key and shows the server’s marks and explanations, with the focus on the result', async () => {
    const api = renderQuiz(() => jsonResponse(201, failed));
    await answer();
    await submit();
    const heading = await screen.findByRole('heading', { level: 2, name: 'You did not pass this time' });
    await vi.waitFor(() => expect(document.activeElement).toBe(heading));
    expect(api.calls).toEqual([{ route: ATTEMPT, body: { answers: { phases: ['b'], tools: ['shield', 'wax'] } } }]);
    expect(screen.getByText('You scored 50%. The pass mark is 70%.')).toBeInTheDocument();
    const marks = screen.getAllByRole('listitem').filter((item) => item.classList.contains('quiz-mark'));
    expect(marks.map((mark) => mark.textContent)).toEqual([
      'Question 1: How many phases does a lash grow in?Your answer: Three✓ Correct',
      'Question 2: Which of these do you need?Your answer: Silicone shields, Hot wax✗ IncorrectShields and glue: wax has no place near the eyes.',
    ]);
    expect(screen.getByText('You have 2 attempts left.', { selector: '.quiz-result p' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Next/ })).toBeNull();
  });

  it('tries again from empty answers while attempts are left, then links on once passed', async () => {
    let attempt = 0;
    const api = renderQuiz(() => jsonResponse(201, ++attempt === 1 ? failed : passed));
    await answer();
    await submit();
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('radio', { name: 'Three' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Hot wax' })).not.toBeChecked();
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Two' })));
    expect(screen.getByText('You have 2 attempts left.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Three' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Silicone shields' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Lash glue' }));
    await submit();
    expect(await screen.findByRole('heading', { level: 2, name: 'You passed' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next: Aftercare' }).getAttribute('href')).toBe('/learn/c-lash/aftercare/');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(api.calls[1]!.body).toEqual({ answers: { phases: ['b'], tools: ['shield', 'glue'] } });
  });

  it('sends unanswered questions too, and shows the server’s refusal with the focus on it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const message = 'Answer question 2 before you submit.';
    const api = renderQuiz(() => jsonResponse(422, { error: { code: 'unprocessable', message } }));
    await userEvent.click(screen.getByRole('radio', { name: 'Two' }));
    await submit();
    const alert = screen.getByRole('alert');
    await vi.waitFor(() => expect(alert.textContent).toBe(message));
    await vi.waitFor(() => expect(document.activeElement).toBe(alert));
    expect(api.calls[0]!.body).toEqual({ answers: { phases: ['a'], tools: [] } });
    expect(screen.getByRole('radio', { name: 'Two' })).toBeChecked();
    expect(screen.getByText('You have 3 attempts left.')).toBeInTheDocument();
  });

  it('says when no attempts are left, with no questions to answer', () => {
    renderQuiz(() => jsonResponse(201, failed), { ...quiz, attemptsUsed: 3, attemptsLeft: 0, bestScore: 50 });
    expect(screen.getByText(/You have used all your attempts at this quiz\./)).toBeInTheDocument();
    expect(screen.getByText('Your best score so far: 50%')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit answers' })).toBeNull();
  });

  it('links on from a quiz passed already', () => {
    renderQuiz(() => jsonResponse(201, passed), { ...quiz, passed: true, bestScore: 100, attemptsUsed: 1, attemptsLeft: 2 });
    expect(screen.getByText('You have passed this quiz.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next: Aftercare' }).getAttribute('href')).toBe('/learn/c-lash/aftercare/');
  });
});

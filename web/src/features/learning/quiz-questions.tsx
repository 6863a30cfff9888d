import type { Answers } from '../../generated/Answers';
import type { QuestionView } from '../../generated/QuestionView';

/** The id of a choice's input, for focus and labels. */
export const choiceId = (prefix: string, question: string, choice: string) => `${prefix}-${question}-${choice}`;

interface QuestionProps {
  prefix: string;
  number: number;
  question: QuestionView;
  chosen: string[];
  onChange: (chosen: string[]) => void;
}

/** One question as a group of choices: radio buttons when it takes one answer, boxes when it may take several. */
function Question({ prefix, number, question, chosen, onChange }: QuestionProps) {
  const single = question.kind === 'single';
  const name = `${prefix}-${question.key}`;
  function toggle(choice: string, checked: boolean) {
    if (single) onChange([choice]);
    else onChange(checked ? [...chosen, choice] : chosen.filter((key) => key !== choice));
  }
  return (
    <fieldset className="quiz-question">
      <legend>
        <span className="quiz-question-number">{`Question ${number}`}</span> {question.prompt}
        {!single && <> <span className="quiz-question-hint">Choose all that apply</span></>}
      </legend>
      {question.choices.map((choice) => {
        const id = choiceId(prefix, question.key, choice.key);
        return (
          <div key={choice.key} className="quiz-choice">
            <input
              id={id} type={single ? 'radio' : 'checkbox'} name={name} value={choice.key}
              checked={chosen.includes(choice.key)} onChange={(event) => toggle(choice.key, event.target.checked)}
            />
            <label htmlFor={id}>{choice.text}</label>
          </div>
        );
      })}
    </fieldset>
  );
}

/** Every question of a quiz, with what was chosen so far. */
export function QuizQuestions({ prefix, questions, answers, onChange }: {
  prefix: string;
  questions: QuestionView[];
  answers: Answers;
  onChange: (key: string, chosen: string[]) => void;
}) {
  return questions.map((question, index) => (
    <Question
      key={question.key} prefix={prefix} number={index + 1} question={question} chosen={answers[question.key] ?? []}
      onChange={(chosen) => onChange(question.key, chosen)}
    />
  ));
}

import type { QuestionKind } from '../../../../generated/QuestionKind';
import { Collapsible, ListButtons, MessageAt, summaryId, TextAt, useCurriculum, useListAt, useMessageAt, useValueAt } from './curriculum-form';
import { blankChoice, blankQuestion, blankQuiz, type ChoiceValues, type QuestionValues, type QuizValues } from './curriculum-values';
import { SlugAndTitle } from './lesson-fields';

// A module's quiz or the final assessment: its address, title, pass mark,
// attempts and questions. A question's and a choice's key are made when
// they are added and never shown: staff write the words and tick the
// right answers.

const MAX_CHOICES = 8;

const KINDS: { value: QuestionKind; label: string }[] = [
  { value: 'single', label: 'One right answer' },
  { value: 'multiple', label: 'One or more right answers' },
];

function KindField({ path }: { path: string }) {
  const { idAt } = useCurriculum();
  const { value, onChange } = useValueAt<QuestionKind>(path);
  const id = idAt(path);
  return (
    <fieldset className="field choices">
      <legend>Answers</legend>
      {KINDS.map((kind) => (
        <div className="choice" key={kind.value}>
          <input type="radio" id={`${id}-${kind.value}`} name={id} checked={value === kind.value} onChange={() => onChange(kind.value)} />
          <label htmlFor={`${id}-${kind.value}`}>{kind.label}</label>
        </div>
      ))}
    </fieldset>
  );
}

function RightAnswer({ path, number }: { path: string; number: number }) {
  const { idAt } = useCurriculum();
  const { value, onChange } = useValueAt<boolean>(path);
  const id = idAt(path);
  return (
    <div className="field checkbox">
      {/* Named for its choice: each question has several boxes that read 'Right answer'. */}
      <input type="checkbox" id={id} aria-label={`Right answer for choice ${number}`} checked={value} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>Right answer</label>
    </div>
  );
}

/** A question's choices: each its words and whether it is right; two at least, eight at most. */
function ChoicesField({ path }: { path: string }) {
  const { idAt, say, focus } = useCurriculum();
  const list = useListAt<ChoiceValues>(path);
  const { value: choices } = useValueAt<ChoiceValues[]>(path);
  const error = useMessageAt(path);
  const id = idAt(path);
  const addId = `${id}-add`;
  return (
    // The summary's link to a message about the choices lands on the whole group.
    <fieldset id={id} tabIndex={-1} className={error ? 'field curriculum-choices has-error' : 'field curriculum-choices'} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Choices</legend>
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
      <ol className="curriculum-list">
        {list.fields.map((choice, index) => (
          <li key={choice.id} className="curriculum-row curriculum-choice">
            <TextAt path={`${path}.${index}.text`} label={`Choice ${index + 1}`} required />
            <RightAnswer path={`${path}.${index}.correct`} number={index + 1} />
            <MessageAt path={`${path}.${index}.key`} />
            {list.fields.length > 2 && (
              <button
                type="button" className="button button-secondary button-small"
                onClick={() => {
                  list.remove(index);
                  focus(idAt(`${path}.${Math.max(index - 1, 0)}.text`));
                  say(`Choice ${index + 1} removed.`);
                }}
              >
                Remove<span className="visually-hidden">{`: choice ${index + 1}`}</span>
              </button>
            )}
          </li>
        ))}
      </ol>
      {list.fields.length < MAX_CHOICES && (
        <button
          type="button" id={addId} className="button button-secondary button-small"
          onClick={() => {
            list.append(blankChoice(choices));
            focus(idAt(`${path}.${list.fields.length}.text`));
            say(`Choice ${list.fields.length + 1} added.`);
          }}
        >
          Add a choice
        </button>
      )}
    </fieldset>
  );
}

interface QuestionProps {
  quiz: string;
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
  addId: string;
}

function QuestionFields({ quiz, index, count, move, remove, addId }: QuestionProps) {
  const { idAt } = useCurriculum();
  const questions = `${quiz}.questions`;
  const path = `${questions}.${index}`;
  const { value: prompt } = useValueAt<string>(`${path}.prompt`);
  return (
    <>
      <Collapsible path={path} startOpen={!prompt} summary={<span className="curriculum-summary-title">{`Question ${index + 1}: ${prompt || 'New question'}`}</span>}>
        <TextAt path={`${path}.prompt`} label="Question" required />
        <MessageAt path={`${path}.key`} />
        <KindField path={`${path}.kind`} />
        <ChoicesField path={`${path}.choices`} />
        <TextAt path={`${path}.explanation`} label="Explanation" multiline hint="Shown once the quiz is marked: why the right answer is right. Optional." />
      </Collapsible>
      <ListButtons
        path={path} index={index} count={count} name={`question ${index + 1}`} addId={addId} move={move} remove={remove}
        pathOf={(at) => `${questions}.${at}`} focusOf={(at) => summaryId(idAt, at)}
      />
    </>
  );
}

function QuestionsField({ quiz }: { quiz: string }) {
  const { idAt, say, focus } = useCurriculum();
  const path = `${quiz}.questions`;
  const list = useListAt<QuestionValues>(path);
  const { value: questions } = useValueAt<QuestionValues[]>(path);
  const id = idAt(path);
  const addId = `${id}-add`;
  return (
    <fieldset id={id} tabIndex={-1} className="field curriculum-questions">
      <legend>Questions</legend>
      <MessageAt path={path} />
      <ol className="curriculum-list">
        {list.fields.map((question, index) => (
          <li key={question.id}>
            <QuestionFields quiz={quiz} index={index} count={list.fields.length} move={list.move} remove={list.remove} addId={addId} />
          </li>
        ))}
      </ol>
      <button
        type="button" id={addId} className="button button-secondary button-small"
        onClick={() => {
          list.append(blankQuestion(questions));
          focus(idAt(`${path}.${list.fields.length}.prompt`));
          say(`Question ${list.fields.length + 1} added.`);
        }}
      >
        Add a question
      </button>
    </fieldset>
  );
}

/**
 * A module's quiz or the final assessment (`noun`), which a course may or
 * may not have: added, folded like a module, or removed.
 */
export function OptionalQuiz({ path, noun, none }: { path: string; noun: string; none: string }) {
  const { idAt, say, focus } = useCurriculum();
  const { value: quiz, onChange } = useValueAt<QuizValues | null>(path);
  const addId = `${idAt(path)}-add`;
  if (!quiz) {
    return (
      <div className="curriculum-quiz">
        <p className="form-note">{none}</p>
        <button
          type="button" id={addId} className="button button-secondary button-small"
          onClick={() => {
            onChange(blankQuiz());
            focus(idAt(`${path}.title`));
            say(`${noun.charAt(0).toUpperCase()}${noun.slice(1)} added.`);
          }}
        >
          {`Add ${noun.startsWith('a') ? 'an' : 'a'} ${noun}`}
        </button>
      </div>
    );
  }
  return (
    <div className="curriculum-quiz">
      <Collapsible
        path={path} startOpen={!quiz.title && !quiz.slug}
        summary={
          <>
            <span className="curriculum-summary-title">{`${noun.charAt(0).toUpperCase()}${noun.slice(1)}: ${quiz.title || 'New quiz'}`}</span>
            <span className="curriculum-summary-note">{`${quiz.questions.length} ${quiz.questions.length === 1 ? 'question' : 'questions'}, pass mark ${quiz.pass_mark}%`}</span>
          </>
        }
      >
        <SlugAndTitle path={path} noun={noun} />
        <div className="field-row">
          <TextAt path={`${path}.pass_mark`} label="Pass mark (%)" inputMode="numeric" hint="The score that passes, 1 to 100" required />
          <TextAt path={`${path}.max_attempts`} label="Most attempts" inputMode="numeric" hint="Leave blank for no limit" />
        </div>
        <QuestionsField quiz={path} />
      </Collapsible>
      <div className="button-row">
        <button
          type="button" className="button button-secondary button-small"
          onClick={() => {
            onChange(null);
            focus(addId);
            say(`${noun.charAt(0).toUpperCase()}${noun.slice(1)} removed.`);
          }}
        >
          {`Remove the ${noun}`}
        </button>
      </div>
    </div>
  );
}

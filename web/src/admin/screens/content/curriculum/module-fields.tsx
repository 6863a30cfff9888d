import { Collapsible, ListButtons, MessageAt, summaryId, TextAt, useCurriculum, useListAt, useValueAt } from './curriculum-form';
import { blankLesson, type LessonValues, type QuizValues } from './curriculum-values';
import { LessonFields } from './lesson-fields';
import { OptionalQuiz } from './quiz-fields';

// One module of a course: its title, its lessons in order, and its quiz if
// it has one. Folded, it says how many lessons it holds.

function LessonsField({ module }: { module: number }) {
  const { idAt, say, focus } = useCurriculum();
  const path = `learning.modules.${module}.lessons`;
  const list = useListAt<LessonValues>(path);
  const id = idAt(path);
  const addId = `${id}-add`;
  return (
    <fieldset id={id} tabIndex={-1} className="field curriculum-lessons">
      <legend>{`Lessons of module ${module + 1}`}</legend>
      <MessageAt path={path} />
      <ol className="curriculum-list">
        {list.fields.map((lesson, index) => (
          <li key={lesson.id}>
            <LessonFields module={module} index={index} count={list.fields.length} move={list.move} remove={list.remove} addId={addId} />
          </li>
        ))}
      </ol>
      <button
        type="button" id={addId} className="button button-secondary button-small"
        onClick={() => {
          list.append(blankLesson());
          focus(idAt(`${path}.${list.fields.length}.title`));
          say(`Lesson ${list.fields.length + 1} added to module ${module + 1}.`);
        }}
      >
        Add a lesson
      </button>
    </fieldset>
  );
}

interface ModuleProps {
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
  addId: string;
}

export function ModuleFields({ index, count, move, remove, addId }: ModuleProps) {
  const { idAt } = useCurriculum();
  const path = `learning.modules.${index}`;
  const { value: title } = useValueAt<string>(`${path}.title`);
  const { value: lessons } = useValueAt<LessonValues[]>(`${path}.lessons`);
  const { value: quiz } = useValueAt<QuizValues | null>(`${path}.quiz`);
  const lessonCount = lessons?.length ?? 0;
  return (
    <>
      <Collapsible
        path={path} startOpen={!title}
        summary={
          <>
            <span className="curriculum-summary-title">{`Module ${index + 1}: ${title || 'New module'}`}</span>
            <span className="curriculum-summary-note">{`${lessonCount} ${lessonCount === 1 ? 'lesson' : 'lessons'}${quiz ? ' and a quiz' : ''}`}</span>
          </>
        }
      >
        <TextAt path={`${path}.title`} label="Title of the module" required />
        <LessonsField module={index} />
        <OptionalQuiz path={`${path}.quiz`} noun="quiz" none="No quiz after this module’s lessons." />
      </Collapsible>
      <ListButtons
        path={path} index={index} count={count} name={`module ${index + 1}`} addId={addId} move={move} remove={remove}
        pathOf={(at) => `learning.modules.${at}`} focusOf={(at) => summaryId(idAt, at)}
      />
    </>
  );
}

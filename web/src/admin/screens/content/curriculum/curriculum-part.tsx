import type { Control, UseFormSetValue } from 'react-hook-form';
import { CurriculumProvider, MessageAt, TextAt, useCurriculum, useListAt, useValueAt, type LearningValues } from './curriculum-form';
import { blankCurriculum, blankModule, type CurriculumValues, type ModuleValues } from './curriculum-values';
import { ModuleFields } from './module-fields';
import { OptionalQuiz } from './quiz-fields';

// The lessons and quizzes of an online course (decision 025), in the
// course's form: how long access lasts, the modules in order with their
// lessons and quizzes, and the final assessment. Saved, previewed and
// published with the rest of the course.

function Modules() {
  const { idAt, say, focus } = useCurriculum();
  const list = useListAt<ModuleValues>('learning.modules');
  const id = idAt('learning.modules');
  const addId = `${id}-add`;
  return (
    <div id={id} tabIndex={-1} className="curriculum-modules">
      <MessageAt path="learning.modules" />
      <ol className="curriculum-list">
        {list.fields.map((module, index) => (
          <li key={module.id}>
            <ModuleFields index={index} count={list.fields.length} move={list.move} remove={list.remove} addId={addId} />
          </li>
        ))}
      </ol>
      <button
        type="button" id={addId} className="button button-secondary button-small"
        onClick={() => {
          list.append(blankModule());
          focus(idAt(`learning.modules.${list.fields.length}.title`));
          say(`Module ${list.fields.length + 1} added.`);
        }}
      >
        Add a module
      </button>
    </div>
  );
}

function Curriculum() {
  const { idAt, say, focus } = useCurriculum();
  const { value, onChange } = useValueAt<CurriculumValues | null>('learning');
  if (!value) {
    return (
      <>
        <p>This course has no lessons yet.</p>
        <button
          type="button" className="button button-secondary"
          onClick={() => {
            onChange(blankCurriculum());
            focus(idAt('learning.modules.0.title'));
            say('A first module with one lesson added.');
          }}
        >
          Write lessons
        </button>
      </>
    );
  }
  return (
    <>
      <TextAt path="learning.access_months" label="Access (months)" inputMode="numeric" hint="How long a student may study it, from the day they pay: 1 to 60 months" required />
      <Modules />
      <h3 className="curriculum-heading">Final assessment</h3>
      <OptionalQuiz path="learning.assessment" noun="final assessment" none="No final assessment: completing every lesson completes the course." />
    </>
  );
}

interface CurriculumPartProps {
  control: Control<LearningValues>;
  setValue: UseFormSetValue<LearningValues>;
  idAt: (path: string) => string;
  label: string;
}

/** The course form's lessons and quizzes, under their own heading. */
export function CurriculumPart({ control, setValue, idAt, label }: CurriculumPartProps) {
  const id = idAt('learning');
  return (
    <CurriculumProvider control={control} setValue={setValue} idAt={idAt}>
      <section className="curriculum" aria-labelledby={`${id}-heading`}>
        <h3 id={`${id}-heading`} className="curriculum-heading">{label}</h3>
        <p className="form-note">
          What a student studies, in order. Each module, lesson, quiz and question folds away: open one to change it. Saving keeps a draft with the
          rest of the course; preview the lessons below before you publish.
        </p>
        <div id={id} tabIndex={-1}>
          <MessageAt path="learning" />
        </div>
        <Curriculum />
      </section>
    </CurriculumProvider>
  );
}

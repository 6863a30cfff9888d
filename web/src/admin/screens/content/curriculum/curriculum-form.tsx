import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { get, useController, useFieldArray, useFormState, useWatch, type Control, type FieldArray, type FieldArrayPath, type Path, type UseFormSetValue } from 'react-hook-form';
import { Field } from '../../../../components/ui/field';
import type { CurriculumValues } from './curriculum-values';

// The controls of the lessons and quizzes part of the course form, bound to
// the form by their path below `learning` (`learning.modules.0.title`), so a
// message the server or the form's own checks give for that path shows
// beside them, and the error summary links to them by the same id.

export interface LearningValues {
  learning: CurriculumValues | null;
}

interface CurriculumForm {
  control: Control<LearningValues>;
  setValue: UseFormSetValue<LearningValues>;
  /** The id of the control at `path`, as the error summary links to it. */
  idAt: (path: string) => string;
  /** Says what a button did, in the part's live region. */
  say: (words: string) => void;
  /** Moves the focus to the control with `id` once the part has rendered again. */
  focus: (id: string) => void;
}

const CurriculumContext = createContext<CurriculumForm | null>(null);

export function useCurriculum(): CurriculumForm {
  const form = useContext(CurriculumContext);
  if (!form) throw new Error('useCurriculum must be used inside CurriculumProvider');
  return form;
}

/** Gives the part's controls the form, a live region and a focus that outlasts a list's change. */
export function CurriculumProvider({ control, setValue, idAt, children }: Omit<CurriculumForm, 'say' | 'focus'> & { children: ReactNode }) {
  const [said, setSaid] = useState('');
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current) document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const form: CurriculumForm = {
    control,
    setValue,
    idAt,
    say: setSaid,
    focus: (id) => {
      focusNext.current = id;
    },
  };
  return (
    <CurriculumContext value={form}>
      {children}
      <p role="status" className="visually-hidden">{said}</p>
    </CurriculumContext>
  );
}

/** The message at `path`, a list's own (react-hook-form keeps it as the list's `root`) or a field's. */
export function useMessageAt(path: string): string | undefined {
  const { control } = useCurriculum();
  const { errors } = useFormState({ control, name: path as Path<LearningValues> });
  const error: unknown = get(errors, path);
  const own = (node: unknown): string | undefined => {
    const message: unknown = node && typeof node === 'object' && 'message' in node ? node.message : undefined;
    return typeof message === 'string' && message ? message : undefined;
  };
  return own(error) ?? own(error && typeof error === 'object' && 'root' in error ? error.root : undefined);
}

/** Whether anything at or below `path` has a message. */
function useFailing(path: string): boolean {
  const { control } = useCurriculum();
  const { errors } = useFormState({ control, name: path as Path<LearningValues> });
  return get(errors, path) !== undefined;
}

/** The value at `path` (a whole quiz, say), and a change to it that marks the form changed. */
export function useValueAt<T>(path: string) {
  const { control, setValue } = useCurriculum();
  const name = path as Path<LearningValues>;
  const value = useWatch({ control, name }) as T;
  return { value, onChange: (next: T) => setValue(name, next as never, { shouldDirty: true }) };
}

interface TextAtProps {
  path: string;
  label: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
  inputMode?: 'numeric' | 'decimal';
}

/** A text of the part, at `path`, with its message beside it; `onTyped` hears each change first. */
export function TextAt({ path, label, hint, required = false, multiline, inputMode, onTyped }: TextAtProps & { onTyped?: (typed: string) => void }) {
  const { control, idAt } = useCurriculum();
  const { field } = useController({ control, name: path as Path<LearningValues> });
  const error = useMessageAt(path);
  return (
    <Field
      id={idAt(path)} label={label} value={typeof field.value === 'string' ? field.value : ''} error={error} required={required} hint={hint} multiline={multiline} inputMode={inputMode}
      onChange={(typed) => {
        onTyped?.(typed);
        field.onChange(typed);
      }}
    />
  );
}

/** The list at `path` (a module's lessons, a question's choices), its items keyed for React, and its changes. */
export function useListAt<T>(path: string) {
  const { control } = useCurriculum();
  const list = useFieldArray({ control, name: path as FieldArrayPath<LearningValues> });
  return {
    fields: list.fields,
    append: (item: T) => list.append(item as FieldArray<LearningValues, FieldArrayPath<LearningValues>>),
    move: list.move,
    remove: list.remove,
  };
}

/** A message of a list or group (its choices, its lessons), shown where the list is. */
export function MessageAt({ path }: { path: string }) {
  const { idAt } = useCurriculum();
  const error = useMessageAt(path);
  return error ? <p id={`${idAt(path)}-error`} className="field-error">{error}</p> : null;
}

/** The id of a folded item's summary, which the focus goes back to. */
export const summaryId = (idAt: (path: string) => string, path: string) => `${idAt(path)}-summary`;

/**
 * A module, lesson, quiz or question, folded under its summary so a long
 * course is not a wall of fields; its fields are there only while it is
 * open. A new one (`startOpen`) opens, and one with a message opens and
 * stays open until it is mended, so every message can be seen.
 */
export function Collapsible({ path, summary, startOpen, children }: { path: string; summary: ReactNode; startOpen: boolean; children: ReactNode }) {
  const { idAt } = useCurriculum();
  const failing = useFailing(path);
  const [open, setOpen] = useState(startOpen);
  if (failing && !open) setOpen(true);
  return (
    <details className="curriculum-item" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary id={summaryId(idAt, path)}>{summary}</summary>
      {open && <div className="curriculum-item-body">{children}</div>}
    </details>
  );
}

interface ListButtonsProps {
  /** The item's path, and its list's length and its place in it. */
  path: string;
  index: number;
  count: number;
  /** What the item is, as staff count: 'lesson 2'. */
  name: string;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
  /** The path of the item at a place in the list (after the change). */
  pathOf: (index: number) => string;
  /** The control an item is reached by (its summary, its first input), by its path. */
  focusOf: (path: string) => string;
  /** Where the focus goes when the list is left empty: its Add button. */
  addId: string;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Move up, move down and remove for an item of a list, outside its fold so
 * a folded item moves too. The focus stays with the item (or goes to the
 * one before, or the Add button), and the live region says what was done.
 */
export function ListButtons({ path, index, count, name, move, remove, pathOf, focusOf, addId }: ListButtonsProps) {
  const { idAt, say, focus } = useCurriculum();
  const id = idAt(path);
  function moveBy(by: -1 | 1) {
    const to = index + by;
    move(index, to);
    const stillMoves = by === -1 ? to > 0 : to < count - 1;
    focus(stillMoves ? `${idAt(pathOf(to))}-${by === -1 ? 'up' : 'down'}` : focusOf(pathOf(to)));
    say(`${capital(name)} moved ${by === -1 ? 'up' : 'down'}, to ${to + 1}.`);
  }
  return (
    <div className="button-row">
      {index > 0 && (
        <button type="button" id={`${id}-up`} className="button button-secondary button-small" onClick={() => moveBy(-1)}>
          Move up<span className="visually-hidden">{`: ${name}`}</span>
        </button>
      )}
      {index < count - 1 && (
        <button type="button" id={`${id}-down`} className="button button-secondary button-small" onClick={() => moveBy(1)}>
          Move down<span className="visually-hidden">{`: ${name}`}</span>
        </button>
      )}
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => {
          remove(index);
          focus(count === 1 ? addId : focusOf(pathOf(Math.max(index - 1, 0))));
          say(`${capital(name)} removed.`);
        }}
      >
        Remove<span className="visually-hidden">{`: ${name}`}</span>
      </button>
    </div>
  );
}

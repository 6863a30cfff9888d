import { useEffect, useRef, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { Field } from '../../components/ui/field';
import { Group, useBound, type Bound } from './form-fields';
import { ImagePicker } from './image-picker';

// Controls whose value is more than one text, bound to the form by one name
// (so the server's message for that name, like `image` or `faqs`, lands
// beside the whole): a group of texts (an image's file and words, a kit),
// and a list of such groups that staff add to, remove from and reorder
// (questions and answers, footer logos). Each input is the site's `Field`,
// but an image's file, which is chosen from the media library.

/** One typed text of a group: its key in the value, its label and how it is typed. */
export interface TextPart {
  name: string;
  label: string;
  hint?: string;
  multiline?: boolean;
  inputMode?: 'numeric' | 'decimal';
  required?: boolean;
}

/** An image's file name in a group, chosen from the media library. */
export interface ImagePart {
  name: string;
  /** What the image is for, lower case: 'image', 'logo'. */
  image: string;
  /** The part an upload's alt text fills when it is still blank. */
  alt?: string;
}

export type Part = TextPart | ImagePart;

type Texts = Record<string, string>;

/** The inputs of one group of texts; the first takes `firstId`, the others their own. */
function Parts({ idBase, firstId, parts, value, onChange }: { idBase: string; firstId: string; parts: readonly Part[]; value: Texts; onChange: (next: Texts) => void }) {
  return parts.map((part, index) => {
    const id = index === 0 ? firstId : `${idBase}-${part.name}`;
    if ('image' in part) {
      const alt = part.alt;
      return (
        <ImagePicker
          key={part.name}
          id={id}
          noun={part.image}
          value={value[part.name] ?? ''}
          onChoose={(choice) => onChange({ ...value, [part.name]: choice.fileName, ...(alt && choice.alt && !value[alt]?.trim() ? { [alt]: choice.alt } : {}) })}
        />
      );
    }
    return <TextInput key={part.name} id={id} part={part} value={value} onChange={onChange} />;
  });
}

function TextInput({ id, part, value, onChange }: { id: string; part: TextPart; value: Texts; onChange: (next: Texts) => void }) {
  return (
    <Field
      id={id}
      label={part.label}
      value={value[part.name] ?? ''}
      error={undefined}
      required={part.required ?? false}
      hint={part.hint}
      multiline={part.multiline}
      inputMode={part.inputMode}
      onChange={(typed) => onChange({ ...value, [part.name]: typed })}
    />
  );
}

/** A few texts that make one value, under a legend: an image is its file and its words. */
export function TextGroupField<TInput extends FieldValues, TOutput>(props: Bound<TInput, TOutput> & { parts: readonly Part[] }) {
  const { id, label, field, error } = useBound(props);
  const value = (field.value ?? {}) as Texts;
  return (
    <Group id={`${id}-group`} legend={label} required={props.required ?? false} error={error} hint={props.hint}>
      <Parts idBase={id} firstId={id} parts={props.parts} value={value} onChange={field.onChange} />
    </Group>
  );
}

interface RepeatingProps {
  parts: readonly Part[];
  /** What one item is called, lower case: 'question'. */
  noun: string;
  /** A new item's texts. */
  blank: Texts;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A list of groups of texts, each with buttons to move it up or down or
 * remove it, and one to add another. After each, the focus stays with the
 * item (or goes to the new one), and a live region says what happened.
 */
export function RepeatingField<TInput extends FieldValues, TOutput>(props: Bound<TInput, TOutput> & RepeatingProps) {
  const { id, label, field, error } = useBound(props);
  const { parts, noun, blank } = props;
  const items = (field.value ?? []) as Texts[];
  const [said, setSaid] = useState('');
  // The control to focus once the list has changed.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current) document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const firstInput = (index: number) => (index === 0 ? id : `${id}-${index}-${parts[0]?.name ?? ''}`);

  function change(next: Texts[], focus: string, words: string) {
    focusNext.current = focus;
    setSaid(words);
    field.onChange(next);
  }
  function move(index: number, by: -1 | 1) {
    const next = [...items];
    const [item] = next.splice(index, 1);
    if (!item) return;
    next.splice(index + by, 0, item);
    const to = index + by;
    const stillMoves = by === -1 ? to > 0 : to < next.length - 1;
    change(next, stillMoves ? `${id}-${to}-${by === -1 ? 'up' : 'down'}` : firstInput(to), `${capital(noun)} ${index + 1} moved ${by === -1 ? 'up' : 'down'}, to ${to + 1}.`);
  }

  return (
    <Group id={`${id}-group`} legend={label} required={props.required ?? false} error={error} hint={props.hint}>
      <ol className="repeating">
        {items.map((item, index) => {
          const name = `${noun} ${index + 1}`;
          return (
            <li key={index}>
              <fieldset className="repeating-item">
                <legend>{capital(name)}</legend>
                <Parts
                  idBase={`${id}-${index}`}
                  firstId={firstInput(index)}
                  parts={parts}
                  value={item}
                  onChange={(next) => field.onChange(items.map((other, at) => (at === index ? next : other)))}
                />
                <div className="button-row">
                  {index > 0 && (
                    <button type="button" id={`${id}-${index}-up`} className="button button-secondary button-small" onClick={() => move(index, -1)}>
                      Move up<span className="visually-hidden">{`: ${name}`}</span>
                    </button>
                  )}
                  {index < items.length - 1 && (
                    <button type="button" id={`${id}-${index}-down`} className="button button-secondary button-small" onClick={() => move(index, 1)}>
                      Move down<span className="visually-hidden">{`: ${name}`}</span>
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    onClick={() => {
                      const next = items.filter((_, at) => at !== index);
                      // The item before, or the one now first, or (none left) the Add button, which takes the field's id.
                      change(next, next.length === 0 ? id : firstInput(Math.max(index - 1, 0)), `${capital(name)} removed.`);
                    }}
                  >
                    Remove<span className="visually-hidden">{`: ${name}`}</span>
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        id={items.length === 0 ? id : `${id}-add`}
        className="button button-secondary button-small"
        onClick={() => change([...items, { ...blank }], firstInput(items.length), `${capital(noun)} ${items.length + 1} added.`)}
      >
        {`Add a ${noun}`}
      </button>
      <p role="status" className="visually-hidden">{said}</p>
    </Group>
  );
}

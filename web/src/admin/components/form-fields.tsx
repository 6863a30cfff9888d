import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { useController, type FieldValues, type Path } from 'react-hook-form';
import { Field } from '../../components/ui/field';
import type { AdminForm } from './use-admin-form';

// The controls of a back-office form, bound to it by name: each takes its
// label from the form, and its message from the form's state. Text goes
// through the site's own `Field`. Choices with labels other than their
// values (a course by id, a status by code), radio groups and check boxes
// are not `Field`'s: they are here, with the same markup and classes, since
// changing `Field` would change every public page's bundle.

export interface Bound<TInput extends FieldValues, TOutput> {
  form: AdminForm<TInput, TOutput>;
  name: keyof TInput & string;
  hint?: string;
  required?: boolean;
}

export function useBound<TInput extends FieldValues, TOutput>({ form, name }: Bound<TInput, TOutput>) {
  const { field, fieldState } = useController<TInput, Path<TInput>, TOutput>({ control: form.form.control, name: name as Path<TInput> });
  const id = form.idOf(name);
  const error = fieldState.error?.message;
  return { id, label: form.labelOf(name), field, error };
}

/** The hint and message of a control that is not a `Field`, and the ids that describe it. */
function messagesFor(id: string, hint: string | undefined, error: string | undefined) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const messages = (
    <>
      {hint && <p id={`${id}-hint`} className="form-note">{hint}</p>}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </>
  );
  return { described, messages };
}

const frameClass = (base: string, error: string | undefined) => (error ? `${base} has-error` : base);

/** A control under its label (starred when required) and its messages. */
function Labelled({ id, label, required, error, messages, children }: { id: string; label: string; required: boolean; error: string | undefined; messages: ReactNode; children: ReactNode }) {
  return (
    <div className={frameClass('field', error)}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {messages}
      {children}
    </div>
  );
}

type TextOptions = Pick<ComponentProps<typeof Field>, 'type' | 'autoComplete' | 'inputMode' | 'multiline'>;

/** A typed value: text, an email, a password, a date, a time, an amount. */
export function TextField<TInput extends FieldValues, TOutput>(props: Bound<TInput, TOutput> & TextOptions) {
  const { id, label, field, error } = useBound(props);
  const { hint, required = false, type, autoComplete, inputMode, multiline } = props;
  return (
    <Field
      id={id}
      label={label}
      value={String(field.value ?? '')}
      error={error}
      required={required}
      onChange={field.onChange}
      {...{ hint, type, autoComplete, inputMode, multiline }}
    />
  );
}

export interface Choice {
  value: string;
  label: string;
}

/** One of `choices` from a list; `none` names the empty choice, when there is one. */
export function ChoiceField<TInput extends FieldValues, TOutput>(props: Bound<TInput, TOutput> & { choices: readonly Choice[]; none?: string }) {
  const { id, label, field, error } = useBound(props);
  const { hint, required = false, choices, none } = props;
  const { described, messages } = messagesFor(id, hint, error);
  return (
    <Labelled id={id} label={label} required={required} error={error} messages={messages}>
      <select
        id={id}
        value={String(field.value ?? '')}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(event) => field.onChange(event.target.value)}
      >
        {none !== undefined && <option value="">{none}</option>}
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>{choice.label}</option>
        ))}
      </select>
    </Labelled>
  );
}

/** A group of inputs under a legend; the first takes the field's id, so the error summary can focus it. */
export function Group({ id, legend, required, error, hint, children }: { id: string; legend: string; required: boolean; error: string | undefined; hint: string | undefined; children: ReactNode }) {
  const { described, messages } = messagesFor(id, hint, error);
  return (
    <fieldset className={frameClass('field choices', error)} aria-describedby={described}>
      <legend>
        {legend}
        {required && <span aria-hidden="true"> *</span>}
      </legend>
      {messages}
      {children}
    </fieldset>
  );
}

/** One of a few `choices`, all in view. */
export function RadioField<TInput extends FieldValues, TOutput>(props: Bound<TInput, TOutput> & { choices: readonly Choice[] }) {
  const { id, label, field, error } = useBound(props);
  const { hint, required = false, choices } = props;
  return (
    <Group id={id} legend={label} required={required} error={error} hint={hint}>
      {choices.map((choice, index) => {
        const inputId = index === 0 ? id : `${id}-${choice.value}`;
        return (
          <div className="choice" key={choice.value}>
            <input
              type="radio"
              id={inputId}
              name={id}
              value={choice.value}
              checked={field.value === choice.value}
              onChange={() => field.onChange(choice.value)}
            />
            <label htmlFor={inputId}>{choice.label}</label>
          </div>
        );
      })}
    </Group>
  );
}

/**
 * Any of `choices`: the value is the list of those ticked. With `filter`
 * (its label), a search box first narrows a long list to the choices whose
 * names hold what is typed; those ticked always stay in view.
 */
export function CheckboxesField<TInput extends FieldValues, TOutput>(props: Bound<TInput, TOutput> & { choices: readonly Choice[]; filter?: string }) {
  const { id, label, field, error } = useBound(props);
  const { hint, required = false, choices, filter } = props;
  const ticked = (field.value ?? []) as string[];
  const [typed, setTyped] = useState('');
  const wanted = typed.trim().toLowerCase();
  const shown = choices.filter((choice) => !wanted || ticked.includes(choice.value) || choice.label.toLowerCase().includes(wanted));
  return (
    <Group id={filter ? `${id}-group` : id} legend={label} required={required} error={error} hint={hint}>
      {filter && (
        <div className="field choices-filter">
          <label htmlFor={id}>{filter}</label>
          <input id={id} type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
          <p role="status" className="form-note">{wanted ? `${shown.length} of ${choices.length} shown` : ''}</p>
        </div>
      )}
      {shown.map((choice, index) => {
        const inputId = index === 0 && !filter ? id : `${id}-${choice.value}`;
        return (
          <div className="choice" key={choice.value}>
            <input
              type="checkbox"
              id={inputId}
              checked={ticked.includes(choice.value)}
              onChange={(event) => field.onChange(event.target.checked ? [...ticked, choice.value] : ticked.filter((value) => value !== choice.value))}
            />
            <label htmlFor={inputId}>{choice.label}</label>
          </div>
        );
      })}
    </Group>
  );
}

/** A yes or no. */
export function CheckboxField<TInput extends FieldValues, TOutput>(props: Bound<TInput, TOutput>) {
  const { id, label, field, error } = useBound(props);
  const { described, messages } = messagesFor(id, props.hint, error);
  return (
    <div className={frameClass('field checkbox', error)}>
      <input
        type="checkbox"
        id={id}
        checked={field.value === true}
        aria-describedby={described}
        onChange={(event) => field.onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {messages}
    </div>
  );
}

/** A file to send (`accept` lists the types offered); the value is the `File`, or null. */
export function FileField<TInput extends FieldValues, TOutput>(props: Bound<TInput, TOutput> & { accept: string }) {
  const { id, label, field, error } = useBound(props);
  const { hint, required = false, accept } = props;
  const { described, messages } = messagesFor(id, hint, error);
  const input = useRef<HTMLInputElement>(null);
  // A file input cannot be given a value: it is emptied when the form is.
  useEffect(() => {
    if (!field.value && input.current) input.current.value = '';
  }, [field.value]);
  return (
    <Labelled id={id} label={label} required={required} error={error} messages={messages}>
      <input
        ref={input}
        type="file"
        id={id}
        accept={accept}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(event) => field.onChange(event.target.files?.[0] ?? null)}
      />
    </Labelled>
  );
}

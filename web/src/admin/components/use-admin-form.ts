import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, fieldErrorsOf } from '../../lib/api';
import { fieldId } from '../../components/ui/field';
import { failureOf } from '../lib/admin-api';

// Every back-office form: react-hook-form keeps the values, a zod schema
// checks them and turns what was typed into what is sent (pounds into pence,
// blanks into nulls), and the server's error envelope lands where the
// public forms put it (decision 012): its `fields` beside the fields, its
// message in the form's error summary, which takes the focus whenever a
// submit fails, and what a sent form did in its live region. A field made of
// lists (a course's lessons) takes the server's messages for paths below it
// (`learning.modules.0.title`), each beside its own control.

interface AdminFormSpec<TInput extends FieldValues, TOutput> {
  schema: z.ZodType<TOutput, TInput>;
  defaultValues: TInput;
  /** Values the form follows when they change (a list's filters, as the address has them after Back). */
  values?: TInput;
  /** Each field's label, in the order the fields appear: the summary lists them so. */
  labels: Record<keyof TInput & string, string>;
  /** Where a path below a field is, in words, for the summary: 'Module 1, title'. */
  placeOf?: (path: string) => string;
  /** Sends the checked values; answers what was done, for the live region. */
  send: (values: TOutput) => Promise<string>;
  /** A 409 that names no field goes beside this one (a session's seats, below those booked). */
  conflictField?: keyof TInput & string;
  /** The form's words for a refusal, instead of the server's (sign-in says one thing whatever was wrong). */
  failure?: (error: unknown) => string;
  /** Empties the fields once sent (a refund, a note), rather than keeping them (an edit). */
  clearWhenSent?: boolean;
}

export function useAdminForm<TInput extends FieldValues, TOutput>({
  schema,
  defaultValues,
  values,
  labels,
  placeOf = (path) => path,
  send,
  conflictField,
  failure = failureOf,
  clearWhenSent = false,
}: AdminFormSpec<TInput, TOutput>) {
  const id = useId();
  const form = useForm<TInput, unknown, TOutput>({
    resolver: zodResolver(schema),
    defaultValues: defaultValues as DefaultValues<TInput>,
    values,
    // The summary takes the focus, and links to each field.
    shouldFocusError: false,
  });
  const [message, setMessage] = useState('');
  const [done, setDone] = useState('');
  // Counts failed submits: each one moves the focus to the summary.
  const [failures, setFailures] = useState(0);
  // Counts sends that succeeded: a confirmation step closes on each.
  const [sent, setSent] = useState(0);
  const names = Object.keys(labels) as (keyof TInput & string)[];

  function failed(text: string) {
    setMessage(text);
    setFailures((count) => count + 1);
  }

  const submit = form.handleSubmit(
    async (values) => {
      setMessage('');
      setDone('');
      try {
        const said = await send(values);
        if (clearWhenSent) form.reset();
        setDone(said);
        setSent((count) => count + 1);
      } catch (error) {
        const besideFields: Partial<Record<string, string>> = error instanceof ApiError ? { ...fieldErrorsOf(error, names), ...belowFields(error, names) } : {};
        const conflict = error instanceof ApiError && error.status === 409 && conflictField && Object.keys(besideFields).length === 0;
        if (conflict) besideFields[conflictField] = error.message;
        for (const [name, text] of Object.entries(besideFields)) form.setError(name as Path<TInput>, { type: 'server', message: text ?? '' });
        failed(conflict ? '' : failure(error));
      }
    },
    () => {
      setDone('');
      failed('');
    },
  );

  /** Checks the fields as a submit would, sending nothing: a refusal shows and takes the focus as a failed submit's does. */
  async function check(): Promise<boolean> {
    const valid = await form.trigger();
    if (!valid) {
      setDone('');
      failed('');
    }
    return valid;
  }

  return {
    form,
    submit,
    check,
    sending: form.formState.isSubmitting,
    /** The form's own message, for the summary; `failures` counts the failed submits. */
    message,
    failures,
    /** What the last submit did, for the live region. */
    done,
    /** How many sends succeeded. */
    sent,
    /** The fields in order, for the summary. */
    names,
    idOf: (name: keyof TInput & string) => fieldId(id, name),
    /** The id of the control at a path below a field (`learning.modules.0.title`). */
    idAt: (path: string) => fieldId(id, path),
    placeOf,
    labelOf: (name: keyof TInput & string) => labels[name],
  };
}

/** The server's messages for paths below the form's fields (`learning.modules.0.title`). */
function belowFields(error: ApiError, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(error.fields).filter(([path]) => names.some((name) => path.startsWith(`${name}.`))));
}

export type AdminForm<TInput extends FieldValues, TOutput> = ReturnType<typeof useAdminForm<TInput, TOutput>>;

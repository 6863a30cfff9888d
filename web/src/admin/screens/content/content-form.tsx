import { useRef, type ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { z } from 'zod';
import type { ContentKind } from '../../../generated/ContentKind';
import { AdminFormView } from '../../components/admin-form';
import { TextField } from '../../components/form-fields';
import { LeaveGuard } from '../../components/leave-guard';
import { useAdminForm, type AdminForm } from '../../components/use-admin-form';
import { keyRule } from './content-rules';
import { KINDS } from './content-kinds';

// One form for every kind of document (decision 018): each kind gives its
// fields, their schema (what is typed → the body the server takes, its
// field names the body's own, so the server's 422 `fields` land beside
// them) and its body as the form's values. A new document's form also asks
// for its key; a kind whose body holds its key (a section's slug, a job's
// id, a level's number) takes it from there, never from a field. Changes
// not yet saved are not lost by leaving the page unasked.

/** What a content form sends: the document's key and its body. */
export interface SentDocument<B> {
  key: string;
  body: B;
}

type KeyInput = { key: string } & FieldValues;

export type ContentFormOf<TInput extends KeyInput, B> = AdminForm<TInput, SentDocument<B>>;

export interface BodySpec<TInput extends KeyInput, B> {
  /** The schema; a new document's checks its key, an existing one's key is as it is. */
  schema: (isNew: boolean) => z.ZodType<SentDocument<B>, TInput>;
  labels: Record<keyof TInput & string, string>;
  /** The form's values for a body as it is, or for a new one (null). */
  valuesOf: (body: B | null, key: string) => TInput;
  Fields: (props: { form: ContentFormOf<TInput, B> }) => ReactNode;
  /** Where a path below a field is, for the error summary (`learning.modules.0.title`: 'Module 1, title'). */
  placeOf?: (path: string) => string;
}

/** A kind's schema: its fields, with the key, into its body. */
export function contentSchema<Shape extends z.ZodRawShape, B>(kind: ContentKind, shape: Shape, toBody: (fields: z.output<z.ZodObject<Shape>>, key: string) => B) {
  return (isNew: boolean) =>
    z
      .object(shape)
      .extend({ key: isNew ? keyRule(kind) : z.string() })
      .transform((typed) => {
        const { key, ...fields } = typed as z.output<z.ZodObject<Shape>> & { key: string };
        return { key, body: toBody(fields as z.output<z.ZodObject<Shape>>, key) };
      });
}

interface ContentFormProps<TInput extends KeyInput, B> {
  kind: ContentKind;
  spec: BodySpec<TInput, B>;
  /** The body to edit, or null for a new document. */
  body: B | null;
  docKey: string;
  submit: string;
  send: (sent: SentDocument<B>) => Promise<string>;
}

export function ContentForm<TInput extends KeyInput, B>({ kind, spec, body, docKey, submit, send }: ContentFormProps<TInput, B>) {
  const isNew = body === null;
  // While a send is under way its own navigation (to a new document's page) is not held back.
  const sending = useRef(false);
  const form = useAdminForm({
    schema: spec.schema(isNew),
    defaultValues: spec.valuesOf(body, docKey),
    labels: spec.labels,
    placeOf: spec.placeOf,
    send: async (sent) => {
      sending.current = true;
      try {
        const said = await send(sent);
        // What was sent is saved: nothing is left to lose.
        form.form.reset(form.form.getValues());
        return said;
      } finally {
        sending.current = false;
      }
    },
    // A new document whose key is taken (409) says so beside the key.
    conflictField: isNew ? 'key' : undefined,
  });
  const dirty = form.form.formState.isDirty;
  return (
    <AdminFormView form={form} submit={submit}>
      <LeaveGuard when={() => dirty && !sending.current} />
      {isNew && <TextField form={form} name="key" hint={KINDS[kind].keyHint} required />}
      <spec.Fields form={form} />
    </AdminFormView>
  );
}

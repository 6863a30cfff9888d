import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { ErrorSummary, FormDone } from './error-summary';
import type { AdminForm } from './use-admin-form';

interface AdminFormViewProps<TInput extends FieldValues, TOutput> {
  form: AdminForm<TInput, TOutput>;
  /** The submit button's words; leave out when `actions` gives the buttons. */
  submit?: string;
  /** Buttons instead of the one submit button (a confirmation step). */
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A back-office form: its error summary first, its fields, its button, and what it did. */
export function AdminFormView<TInput extends FieldValues, TOutput>({ form, submit, actions, children, className = 'admin-form' }: AdminFormViewProps<TInput, TOutput>) {
  return (
    <form noValidate className={className} onSubmit={(event) => void form.submit(event)}>
      <ErrorSummary form={form} />
      {children}
      {actions ?? (
        <button type="submit" className="button" disabled={form.sending}>
          {submit}
        </button>
      )}
      <FormDone text={form.done} />
    </form>
  );
}

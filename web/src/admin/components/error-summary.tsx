import { useEffect, useRef } from 'react';
import { useFormState, type FieldValues } from 'react-hook-form';
import type { AdminForm } from './use-admin-form';

/**
 * What is wrong with a form, above it: its own message and a link to each
 * field with one. Each failed submit moves the focus here (once it shows),
 * so a keyboard or screen reader user hears it and can jump to the field.
 */
export function ErrorSummary<TInput extends FieldValues, TOutput>({ form }: { form: AdminForm<TInput, TOutput> }) {
  const { errors } = useFormState({ control: form.form.control });
  const ref = useRef<HTMLDivElement>(null);
  // The failure last focused for: the summary may show a render after the failure is counted.
  const focusedFor = useRef(0);
  useEffect(() => {
    if (form.failures > focusedFor.current && ref.current) {
      focusedFor.current = form.failures;
      ref.current.focus();
    }
  });

  const items = form.names.flatMap((name) => {
    const text = errors[name]?.message;
    return typeof text === 'string' && text ? [{ name, text }] : [];
  });
  if (!form.message && items.length === 0) return null;
  return (
    <div className="error-summary" tabIndex={-1} ref={ref}>
      <div role="alert">
        <p className="error-summary-title">There is a problem</p>
        {form.message && <p>{form.message}</p>}
        {items.length > 0 && (
          <ul>
            {items.map(({ name, text }) => (
              <li key={name}>
                <a
                  href={`#${form.idOf(name)}`}
                  onClick={(event) => {
                    event.preventDefault();
                    document.getElementById(form.idOf(name))?.focus();
                  }}
                >
                  {`${form.labelOf(name)}: ${text}`}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** What a sent form did, in a live region that is there from the start so it is heard. */
export function FormDone({ text }: { text: string }) {
  return (
    <p role="status" className={text ? 'form-done' : 'form-done is-empty'}>
      {text}
    </p>
  );
}

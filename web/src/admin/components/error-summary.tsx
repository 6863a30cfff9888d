import { useEffect, useRef } from 'react';
import { useFormState, type FieldValues } from 'react-hook-form';
import type { AdminForm } from './use-admin-form';

interface Item {
  /** The field's name, or the path below it (`learning.modules.0.title`). */
  path: string;
  label: string;
  text: string;
}

/** The message of an error node: react-hook-form keeps a list's own as its `root`. */
function messageOf(node: unknown): string | undefined {
  const message: unknown = node && typeof node === 'object' && 'message' in node ? node.message : undefined;
  return typeof message === 'string' && message ? message : undefined;
}

/** Every message at or below `path` in `node`, in the order of the form's lists. */
function messagesBelow(node: unknown, path: string): { path: string; text: string }[] {
  if (!node || typeof node !== 'object') return [];
  const own = messageOf(node);
  const found = own ? [{ path: path.replace(/\.root$/, ''), text: own }] : [];
  for (const [key, child] of Object.entries(node)) {
    if (key !== 'message' && key !== 'type' && key !== 'ref' && key !== 'types') found.push(...messagesBelow(child, `${path}.${key}`));
  }
  return found;
}

/**
 * What is wrong with a form, above it: its own message and a link to each
 * field with one, fields below a field (a course's lessons) included. Each
 * failed submit moves the focus here (once it shows), so a keyboard or
 * screen reader user hears it and can jump to the field.
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

  const items: Item[] = form.names.flatMap((name) =>
    messagesBelow(errors[name], name).map(({ path, text }) => ({
      path,
      label: path === name ? form.labelOf(name) : `${form.labelOf(name)}: ${form.placeOf(path)}`,
      text,
    })),
  );
  if (!form.message && items.length === 0) return null;
  return (
    <div className="error-summary" tabIndex={-1} ref={ref}>
      <div role="alert">
        <p className="error-summary-title">There is a problem</p>
        {form.message && <p>{form.message}</p>}
        {items.length > 0 && (
          <ul>
            {items.map(({ path, label, text }) => (
              <li key={path}>
                <a
                  href={`#${form.idAt(path)}`}
                  onClick={(event) => {
                    event.preventDefault();
                    document.getElementById(form.idAt(path))?.focus();
                  }}
                >
                  {`${label}: ${text}`}
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

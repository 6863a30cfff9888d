export const fieldId = (prefix: string, field: string) => `${prefix}-${field}`;

/** Focuses the first field, in `order`, that has an error. */
export function focusFirstError(prefix: string, order: readonly string[], errors: Partial<Record<string, string>>) {
  const first = order.find((field) => errors[field]);
  if (first) document.getElementById(fieldId(prefix, first))?.focus();
}

interface FieldProps {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  required: boolean;
  type?: 'text' | 'email' | 'tel' | 'password';
  autoComplete: string;
  inputMode?: 'numeric';
  /** What the value must be, said before any error (a password's length, say). */
  hint?: string;
  onChange: (value: string) => void;
}

/** A labelled input with its hint and its message beside it. */
export function Field({ id, label, value, error, required, type = 'text', autoComplete, inputMode, hint, onChange }: FieldProps) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {hint && <p id={`${id}-hint`} className="form-note">{hint}</p>}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
      <input
        id={id}
        type={type}
        value={value}
        required={required}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

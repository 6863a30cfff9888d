import type { ReactNode } from 'react';
import { reveal } from './reveal';

export const fieldId = (prefix: string, field: string) => `${prefix}-${field}`;

/** Focuses the first field, in `order`, that has an error, and brings it into view. */
export function focusFirstError(prefix: string, order: readonly string[], errors: Partial<Record<string, string>>) {
  const first = order.find((field) => errors[field]);
  if (first) reveal(document.getElementById(fieldId(prefix, first)));
}

interface FieldProps {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  required: boolean;
  /** The back office (decision 017) also asks for dates, times and links. */
  type?: 'text' | 'email' | 'tel' | 'password' | 'date' | 'time' | 'url';
  /** What the browser may fill in; none for free text and choices. */
  autoComplete?: string;
  /** A choice from these, after 'Please choose', instead of typing. */
  options?: readonly string[];
  /** Several lines of free text. */
  multiline?: boolean;
  inputMode?: 'numeric' | 'decimal';
  /** What the value must be, said before any error (a password's length, say). */
  hint?: string;
  /** A button beside the input, the form's own (a discount code's Apply, say). */
  action?: ReactNode;
  /**
   * Says the message as it appears, for a form with no alert of its own (one
   * field and its button): its live region is there, empty, from the start.
   */
  alert?: boolean;
  onChange: (value: string) => void;
}

/** A labelled input (or text area, or choice) with its hint and its message beside it, and any button of its own after it. */
export function Field({ id, label, value, error, required, type = 'text', autoComplete, inputMode, hint, options, multiline, action, alert, onChange }: FieldProps) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  const common = {
    id,
    value,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };
  const control = options ? (
    <select {...common}>
      <option value="">Please choose</option>
      {options.map((option) => <option key={option} value={option}>{option}</option>)}
    </select>
  ) : multiline ? (
    <textarea {...common} rows={5} />
  ) : (
    <input {...common} type={type} autoComplete={autoComplete} inputMode={inputMode} />
  );
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {hint && <p id={`${id}-hint`} className="form-note">{hint}</p>}
      {alert ? (
        <p id={`${id}-error`} className="field-error" role="alert">{error}</p>
      ) : (
        error && <p id={`${id}-error`} className="field-error">{error}</p>
      )}
      {action ? (
        <div className="inline-field">
          {control}
          {action}
        </div>
      ) : (
        control
      )}
    </div>
  );
}

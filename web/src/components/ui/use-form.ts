import { useId, useState, type FormEvent } from 'react';
import { ApiError, fieldErrorsOf } from '../../lib/api';
import { fieldId, focusFirstError } from './field';

// One form's state, for forms made of `Field`s: what was typed, each field's
// message, the form's own message and whether it is being sent. The browser
// checks first (§5); the server's messages for the same fields go beside
// them, and focus goes to the first field with one.

type Values<F extends string> = Record<F, string>;
type Messages<F extends string> = Partial<Record<F, string>>;

interface FormSpec<F extends string> {
  /** In the order they appear: the first with a message takes the focus. */
  fields: readonly F[];
  initial: Values<F>;
  validate: (values: Values<F>) => Messages<F>;
  /**
   * Sends the checked values. A thrown `ApiError`'s messages for these
   * fields go beside them; any other error's message goes to the form.
   */
  send: (values: Values<F>) => Promise<void>;
}

/** `sent` stays: the page moves on, or shows what happens next. */
export type FormStatus = 'editing' | 'sending' | 'sent';

export function useForm<F extends string>({ fields, initial, validate, send }: FormSpec<F>) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Messages<F>>({});
  const [message, setMessage] = useState('');
  const [status, setStatus] = useState<FormStatus>('editing');

  function refuse(found: Messages<F>) {
    setErrors(found);
    focusFirstError(id, fields, found);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (status !== 'editing') return;
    const found = validate(values);
    if (Object.keys(found).length > 0) {
      refuse(found);
      return;
    }
    setErrors({});
    setMessage('');
    setStatus('sending');
    try {
      await send(values);
      setStatus('sent');
    } catch (error) {
      setStatus('editing');
      const fromServer = error instanceof ApiError ? fieldErrorsOf(error, fields) : {};
      if (Object.keys(fromServer).length > 0) refuse(fromServer);
      else setMessage(error instanceof Error ? error.message : String(error));
    }
  }

  /** What `Field` needs of `name`: its id, value, message and change. */
  function field(name: F) {
    return {
      id: fieldId(id, name),
      value: values[name],
      error: errors[name],
      onChange: (value: string) => {
        setValues((current) => ({ ...current, [name]: value }));
        if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
      },
    };
  }

  return { id, values, message, status, submit, field };
}

import { useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError, fieldErrorsOf } from '../../lib/api';
import { fieldId, focusFirstError } from './field';
import { formMessageId } from './form-message';
import { reveal } from './reveal';

// One form's state, for forms made of `Field`s: what was typed, each field's
// message, the form's own message and whether it is being sent. The browser
// checks first (docs/product.md#contact-details); the server's messages for the same fields go beside
// them, and focus goes to the first field with one; a send refused with the
// form's own message (a declined card) takes the focus to that message
// (`FormMessage`), wherever it sits on the screen.

type Values<F extends string> = Record<F, string>;
type Messages<F extends string> = Partial<Record<F, string>>;

interface FormSpec<F extends string> {
  /** In the order they appear: the first with a message takes the focus. */
  fields: readonly F[];
  initial: Values<F>;
  validate: (values: Values<F>) => Messages<F>;
  /**
   * Sends the checked values. A thrown `ApiError`'s messages for these
   * fields go beside them, and its message to the form; any other error
   * is said by `failure`.
   */
  send: (values: Values<F>) => Promise<void>;
  /** What the form says when sending failed for another reason; the error's own message unless given. */
  failure?: (error: unknown) => string;
  /** What the form says when it opens, if anything (a payment that came back refused, say). */
  message?: string;
  /**
   * The field the form's own message goes beside, for a form with no alert
   * of its own (the discount code): typing there takes it back.
   */
  messageField?: F;
}

const ownMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What `Field` needs of one of the form's fields. */
export interface FieldBinding {
  id: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

/** `sent` stays: the page moves on, or shows what happens next. */
export type FormStatus = 'editing' | 'sending' | 'sent';

export function useForm<F extends string>({ fields, initial, validate, send, failure = ownMessage, message: opening = '', messageField }: FormSpec<F>) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Messages<F>>({});
  const [message, setMessage] = useState(opening);
  const [status, setStatus] = useState<FormStatus>('editing');
  // Counts the sends refused with the form's own message: each one, once
  // shown, takes the focus, even when its words are the last one's.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) reveal(document.getElementById(formMessageId(id)));
  }, [refusals, id]);

  function refuse(found: Messages<F>) {
    setErrors(found);
    focusFirstError(id, fields, found);
  }

  /** The form's `onSubmit`. */
  function submit(event: FormEvent) {
    event.preventDefault();
    if (status === 'editing') void check();
  }

  async function check() {
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
      if (Object.keys(fromServer).length > 0) {
        if (!messageField) setMessage((error as ApiError).message);
        refuse(fromServer);
      } else if (messageField) {
        refuse({ [messageField]: failure(error) } as Messages<F>);
      } else {
        setMessage(failure(error));
        setRefusals((count) => count + 1);
      }
    }
  }

  /** What `Field` needs of `name`: its id, value, message and change. */
  function field(name: F): FieldBinding {
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

  /** Changes what was typed from outside the fields (a signed-in buyer's details, say). */
  function update(change: (current: Values<F>) => Values<F>) {
    setValues(change);
  }

  /** Takes back every field's message (the rules changed: another payment method, say). */
  function clearErrors() {
    setErrors({});
  }

  return { id, values, message, status, submit, field, update, clearErrors };
}

import type { FormEvent, ReactNode } from 'react';
import { FormMessage } from './ui/form-message';
import type { FormStatus } from './ui/use-form';

// The account pages' one form layout (decision 008): a heading that names
// the form, its fields, the server's message and one button. Shared: the
// sign-in and password pages and the link that starts a course use it.

interface AccountFormProps {
  heading: string;
  /** The state `useForm` keeps for it. */
  form: { id: string; message: string; status: FormStatus; submit: (event: FormEvent) => void };
  /** What the form does, for the note shown when JavaScript is off: 'Signing in'. */
  action: string;
  /** The button's words, and its words while the form is sent. */
  submit: string;
  sending: string;
  /** Said before the fields. */
  intro?: ReactNode;
  children: ReactNode;
  /** Links to the other account pages. */
  footer: ReactNode;
}

export function AccountForm({ heading, form, action, submit, sending, intro, children, footer }: AccountFormProps) {
  return (
    <div className="container account-form">
      <h1 id={`${form.id}-title`}>{heading}</h1>
      <noscript>
        <p>{`${action} needs JavaScript. Please turn it on, or call us and we will help you.`}</p>
      </noscript>
      {intro}
      <form noValidate onSubmit={form.submit} aria-labelledby={`${form.id}-title`}>
        {children}
        <FormMessage form={form} />
        <button type="submit" className="button button-wide" aria-disabled={form.status !== 'editing'}>
          {form.status === 'editing' ? submit : sending}
        </button>
      </form>
      {footer}
    </div>
  );
}

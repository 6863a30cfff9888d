/** The id of the message of the form whose fields' ids start with `prefix` (no field is called 'form-message'). */
export const formMessageId = (prefix: string) => `${prefix}-form-message`;

/**
 * A form's own message (a declined card, a wrong password), from `useForm`:
 * a live region there from the start, so it is heard as it appears, which
 * takes the focus after a refused send.
 */
export function FormMessage({ form, className }: { form: { id: string; message: string }; className?: string }) {
  return (
    <p id={formMessageId(form.id)} role="alert" tabIndex={-1} className={className ? `form-error ${className}` : 'form-error'}>
      {form.message}
    </p>
  );
}

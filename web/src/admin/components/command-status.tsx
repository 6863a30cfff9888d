import type { Command } from './use-command';

/** What a command did, or why it failed, in live regions there from the start. */
export function CommandStatus({ command }: { command: Command }) {
  return (
    <>
      <p role="status" className={command.done ? 'form-done' : 'form-done is-empty'}>{command.done}</p>
      <p role="alert" className={command.error ? 'form-error' : 'form-error is-empty'}>{command.error}</p>
    </>
  );
}

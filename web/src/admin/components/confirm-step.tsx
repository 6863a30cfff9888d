import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface ConfirmStepProps {
  /** The button that opens the step: 'Cancel this session'. */
  ask: string;
  /** The opener's name when `ask` alone would not say what it acts on (a row's 'Remove'); it starts with `ask`. */
  askLabel?: string;
  /** What will happen, said before it is done: it may name what the form holds ('Refund £50.50 to the card?'). */
  children: ReactNode;
  /** The button that does it: 'Yes, cancel the session'. */
  confirm: string;
  /** The button that closes the step and does nothing. */
  keep: string;
  busy: boolean;
  /** Does it; without it, the confirm button submits the form around the step. */
  onConfirm?: () => void;
  /**
   * Checked before the step opens (a form's `check`): a refusal leaves it
   * closed, so what it says is never made of fields the form would refuse.
   */
  ready?: () => Promise<boolean>;
  /** The step closes whenever this changes (a form's `sent`), so a form that stays asks again for the next time. */
  closeOn?: unknown;
}

const CLOSED = Symbol('closed');

/**
 * A change that cannot be taken back asks first: the button opens what will
 * happen, with the focus on it, and a choice to go ahead or not; not going
 * ahead, or the change being done, puts the focus back on the button.
 */
export function ConfirmStep({ ask, askLabel, children, confirm, keep, busy, onConfirm, ready, closeOn }: ConfirmStepProps) {
  // Open for the `closeOn` it was opened at: a new one closes it.
  const [openFor, setOpenFor] = useState<unknown>(CLOSED);
  const open = openFor !== CLOSED && Object.is(openFor, closeOn);
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  // Moved only when the step opens or closes, not on the first render.
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    (open ? panel.current : opener.current)?.focus();
  }, [open]);
  function toggle(next: boolean) {
    moved.current = true;
    setOpenFor(next ? closeOn : CLOSED);
  }
  async function askFirst() {
    if (ready && !(await ready())) return;
    toggle(true);
  }

  if (!open) {
    return (
      <button type="button" className="button button-danger" ref={opener} aria-label={askLabel} onClick={() => void askFirst()}>
        {ask}
      </button>
    );
  }
  return (
    <div className="confirm-step" role="group" aria-labelledby={`${id}-what`} tabIndex={-1} ref={panel}>
      <div id={`${id}-what`}>{children}</div>
      <div className="button-row">
        <button type={onConfirm ? 'button' : 'submit'} className="button button-danger" disabled={busy} onClick={onConfirm}>
          {confirm}
        </button>
        <button type="button" className="button button-secondary" onClick={() => toggle(false)}>
          {keep}
        </button>
      </div>
    </div>
  );
}

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface ConfirmStepProps {
  /** The button that opens the step: 'Cancel this session'. */
  ask: string;
  /** What will happen, said before it is done. */
  children: ReactNode;
  /** The button that does it: 'Yes, cancel the session'. */
  confirm: string;
  /** The button that closes the step and does nothing. */
  keep: string;
  busy: boolean;
  /** Does it; without it, the confirm button submits the form around the step. */
  onConfirm?: () => void;
}

/**
 * A change that cannot be taken back asks first: the button opens what will
 * happen, with the focus on it, and a choice to go ahead or not; not going
 * ahead puts the focus back on the button.
 */
export function ConfirmStep({ ask, children, confirm, keep, busy, onConfirm }: ConfirmStepProps) {
  const [open, setOpen] = useState(false);
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
    setOpen(next);
  }

  if (!open) {
    return (
      <button type="button" className="button button-danger" ref={opener} onClick={() => toggle(true)}>
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

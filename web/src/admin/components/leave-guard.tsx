import { useEffect, useId, useRef } from 'react';
import { useBlocker } from 'react-router';

/**
 * Holds back leaving a form whose changes are not sent (`when` says so at
 * the moment of leaving): a link inside the back office asks here, with the
 * focus on the question; closing or reloading the tab gets the browser's
 * own question.
 */
export function LeaveGuard({ when }: { when: () => boolean }) {
  const blocker = useBlocker(() => when());
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  // The latest `when`, for the browser's question.
  const latest = useRef(when);
  useEffect(() => {
    latest.current = when;
  });
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (latest.current()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);
  const blocked = blocker.state === 'blocked';
  useEffect(() => {
    if (blocked) panel.current?.focus();
  }, [blocked]);

  if (!blocked) return null;
  return (
    <div className="confirm-step" role="alertdialog" aria-labelledby={`${id}-what`} tabIndex={-1} ref={panel}>
      <p id={`${id}-what`}>Your changes are not saved. Leave this page and lose them?</p>
      <div className="button-row">
        <button type="button" className="button button-danger" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </button>
        <button type="button" className="button button-secondary" onClick={() => blocker.reset?.()}>
          Stay and keep editing
        </button>
      </div>
    </div>
  );
}

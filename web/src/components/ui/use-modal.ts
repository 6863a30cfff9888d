import { useEffect, useEffectEvent, useRef, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Behaviour of an overlay while `open`: focus moves inside, Tab stays
 * inside, Escape or a click on the backdrop around it (the element's
 * parent) closes, and focus returns to where it was.
 */
export function useModal(open: boolean, onClose: () => void): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement | null>(null);
  const close = useEffectEvent(onClose);

  useEffect(() => {
    if (!open) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const container = ref.current;
    const first = container?.querySelector<HTMLElement>('[data-autofocus]') ?? container?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();

    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
        return;
      }
      if (event.key !== 'Tab' || !container) return;
      const items = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null || el === document.activeElement);
      if (items.length === 0) return;
      const firstItem = items[0]!;
      const lastItem = items[items.length - 1]!;
      if (event.shiftKey && document.activeElement === firstItem) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && document.activeElement === lastItem) {
        event.preventDefault();
        firstItem.focus();
      }
    }
    const backdrop = container?.parentElement;
    function onBackdropClick(event: MouseEvent) {
      if (event.target === backdrop) close();
    }
    document.addEventListener('keydown', onKeyDown);
    backdrop?.addEventListener('click', onBackdropClick);
    document.body.classList.add('has-overlay');
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      backdrop?.removeEventListener('click', onBackdropClick);
      document.body.classList.remove('has-overlay');
      returnTo?.focus();
    };
  }, [open]);

  return ref;
}

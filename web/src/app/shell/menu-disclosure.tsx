import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from '../../lib/router';
import { ChevronIcon } from '../../components/ui/icons';

/**
 * A top-level menu item that opens a panel: by hover and focus on desktop
 * (pure CSS, so it works before the script loads) and by its toggle button.
 * Escape closes it and returns focus to the toggle; so does leaving it.
 */
export function MenuDisclosure({ label, link, wide = false, children }: { label: string; link: ReactNode; wide?: boolean; children: ReactNode }) {
  // Open on the page it was opened on: following a link closes it.
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (opened: boolean) => setOpenOn(opened ? pathname : null);
  // Not `useId`: the server keeps the header apart from the page (decision 042).
  const id = `${label.toLowerCase()}-menu`;
  const item = useRef<HTMLLIElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (!item.current?.contains(event.target as Node)) setOpenOn(null);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      toggle.current?.focus();
    }
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <li
      ref={item}
      className={`menu-item has-panel${open ? ' is-open' : ''}`}
      onBlur={(event) => {
        if (!item.current?.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      {link}
      <button
        ref={toggle}
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <ChevronIcon />
        <span className="visually-hidden">{`${label} menu`}</span>
      </button>
      <div id={id} className={wide ? 'menu-panel mega-panel' : 'menu-panel'}>
        {children}
      </div>
    </li>
  );
}

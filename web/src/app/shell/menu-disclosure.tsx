import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ChevronIcon } from '../../components/ui/icons';

/**
 * A top-level menu item that opens a panel: by hover and focus on desktop
 * (pure CSS, so it works before the script loads) and by its toggle button.
 * Escape closes it and returns focus to the toggle; so does leaving it.
 */
export function MenuDisclosure({ label, link, wide = false, children }: { label: string; link: ReactNode; wide?: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const item = useRef<HTMLLIElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  useEffect(() => setOpen(false), [location.pathname]);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (!item.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  return (
    <li
      ref={item}
      className={`menu-item has-panel${open ? ' is-open' : ''}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          toggle.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (!item.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      {link}
      <button
        ref={toggle}
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((v) => !v)}
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

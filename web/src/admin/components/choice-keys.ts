import type { KeyboardEvent } from 'react';

// The keys of a picker's panel (the image picker, the course file picker):
// the arrow keys, Home and End move between the choices' buttons in `list`;
// Escape closes the panel.

const MOVES: Partial<Record<string, (at: number, count: number) => number>> = {
  ArrowDown: (at, count) => Math.min(at + 1, count - 1),
  ArrowRight: (at, count) => Math.min(at + 1, count - 1),
  ArrowUp: (at) => Math.max(at - 1, 0),
  ArrowLeft: (at) => Math.max(at - 1, 0),
  Home: () => 0,
  End: (_, count) => count - 1,
};

export function onChoiceKeys(event: KeyboardEvent<HTMLElement>, list: HTMLUListElement | null, close: () => void) {
  if (event.key === 'Escape') {
    event.preventDefault();
    close();
    return;
  }
  const buttons = [...(list?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const move = MOVES[event.key];
  if (at < 0 || !move) return;
  event.preventDefault();
  buttons[move(at, buttons.length)]?.focus();
}

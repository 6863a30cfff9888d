// What a refused submit points at, a field or the form's own message, takes
// the focus and comes to the middle of the screen: on a phone it may sit far
// above or below the button pressed, and the sticky header covers whatever
// is scrolled only as far as the top edge.

/** Focuses `element` and scrolls it to the middle of the screen. */
export function reveal(element: HTMLElement | null) {
  if (!element) return;
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: 'center' });
}

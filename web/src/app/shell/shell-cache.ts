import type { ShellParts } from './shell-part';

// What React renders for the elements `ShellPart` puts in the page.
const placeholder = (name: string) => `<template data-shell-part="${name}"></template>`;
const startMark = (name: string) => `<template data-shell-start="${name}"></template>`;
const endMark = (name: string) => `<template data-shell-end="${name}"></template>`;

/**
 * The server's shell parts, each as last rendered (decision 042): one
 * content version's, as rendering the next version's replaces them.
 */
export class ShellCache {
  private readonly parts = new Map<string, { inputs: string; html: string }>();

  /**
   * The HTML `renderPage` gives with these parts: a part kept is rendered as
   * its placeholder and put back in its place; a part not kept yet is kept
   * from this render, between its marks.
   */
  render(renderPage: (parts: ShellParts) => string): string {
    const marked = new Map<string, string>();
    let html = renderPage({
      kept: (name, inputs) => {
        if (this.parts.get(name)?.inputs === inputs) return true;
        marked.set(name, inputs);
        return false;
      },
    });
    for (const [name, inputs] of marked) {
      const [start, end] = [startMark(name), endMark(name)];
      const from = html.indexOf(start);
      const to = html.indexOf(end, from);
      if (from < 0 || to < 0) throw new Error(`The shell's ${name} did not render whole`);
      const part = html.slice(from + start.length, to);
      this.parts.set(name, { inputs, html: part });
      html = html.slice(0, from) + part + html.slice(to + end.length);
    }
    for (const [name, part] of this.parts) {
      if (!marked.has(name)) html = html.replace(placeholder(name), () => part.html);
    }
    return html;
  }
}

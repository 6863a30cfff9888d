import { createContext, use, type ReactNode } from 'react';

/**
 * The server's parts of the page shell kept between renders (decision 042):
 * the header and the footer are two thirds of a page's elements and the same
 * on every page of a content version.
 */
export interface ShellParts {
  /**
   * Whether the part `name` rendered from `inputs` is kept. When it is not,
   * the render marks where it starts and ends for the server to keep it.
   */
  kept(name: string, inputs: string): boolean;
}

export const ShellPartsContext = createContext<ShellParts | null>(null);

/**
 * A part of the shell that depends on nothing but `inputs` when the server
 * renders it: on the server no one is signed in, the basket is empty and no
 * menu is open. In the browser it is its children; on the server it is a
 * placeholder once the part is kept. It must not use `useId` or render an
 * image React would preload, whose ids and links depend on the rest of the page.
 */
export function ShellPart({ name, inputs, children }: { name: string; inputs: unknown[]; children: ReactNode }) {
  const parts = use(ShellPartsContext);
  if (!parts) return children;
  if (parts.kept(name, JSON.stringify(inputs))) return <template data-shell-part={name} />;
  return (
    <>
      <template data-shell-start={name} />
      {children}
      <template data-shell-end={name} />
    </>
  );
}

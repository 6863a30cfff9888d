import { createContext, useContext, type ComponentType } from 'react';
import type { Page } from '../generated/Page';

// Decision 012: one module per page kind in `src/app/routes/`, named after
// the kind in kebab case (`courseIndex` → `course-index.tsx`), each with the
// page's component as its default export. The browser's entry loads them
// lazily, one chunk per kind, and the server's entry eagerly, because QuickJS
// renders synchronously. The Rust server and `bench/run` find a kind's
// chunk in Vite's manifest by the same name.

export type PageKind = Page['kind'];
export type PageOf<K extends PageKind> = Extract<Page, { kind: K }>;

export interface RouteProps<K extends PageKind> {
  page: PageOf<K>;
  /** The page's path with its query, as the server resolved it. */
  path: string;
}

/** A route module; `never` lets every kind's component in. */
export interface RouteModule {
  default: ComponentType<RouteProps<never>>;
}

/** The props a route module's component is rendered with: its kind's page, by the naming rule above. */
type AnyRoute = ComponentType<{ page: Page; path: string }>;

/** A kind's module name: `courseIndex` → `course-index`. */
export function routeName(kind: PageKind): string {
  return kind.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The route modules of an entry: loaded already (`import.meta.glob` eager), or loaders (lazy), by file. */
export type RouteModules = Record<string, RouteModule | (() => Promise<RouteModule>)>;

export class RouteTable {
  private readonly loaded = new Map<string, AnyRoute>();
  private readonly loaders = new Map<string, () => Promise<RouteModule>>();

  constructor(modules: RouteModules) {
    for (const [file, module] of Object.entries(modules)) {
      const name = /([a-z-]+)\.tsx$/.exec(file)?.[1];
      if (!name) throw new Error(`${file} is not named like a route module`);
      if (typeof module === 'function') this.loaders.set(name, module);
      else this.loaded.set(name, module.default as AnyRoute);
    }
  }

  /** Resolves once `component(kind)` can render the kind; loads its module the first time. */
  async load(kind: PageKind): Promise<void> {
    const name = routeName(kind);
    if (this.loaded.has(name)) return;
    const loader = this.loaders.get(name);
    if (!loader) throw new Error(`No route module for the page kind ${kind}`);
    this.loaded.set(name, (await loader()).default as AnyRoute);
  }

  /** The kind's component, once loaded. */
  component(kind: PageKind): AnyRoute {
    const component = this.loaded.get(routeName(kind));
    if (!component) throw new Error(`The route module of ${kind} is not loaded`);
    return component;
  }
}

export const RouteTableContext = createContext<RouteTable | null>(null);

export function useRouteTable(): RouteTable {
  const routes = useContext(RouteTableContext);
  if (!routes) throw new Error('useRouteTable must be used inside RouteTableContext');
  return routes;
}

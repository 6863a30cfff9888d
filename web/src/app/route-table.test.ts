import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RouteTable, routeName, type PageKind, type RouteModule } from './route-table';

const modules = import.meta.glob<RouteModule>('./routes/*.tsx', { eager: true });
const kinds = [...readFileSync(resolve(__dirname, '../generated/Page.ts'), 'utf8').matchAll(/"kind": "(\w+)"/g)]
  .map(([, kind]) => kind as PageKind);

describe('the route table', () => {
  it('has one route module for every page kind the server sends, and no other', () => {
    expect(kinds.length).toBeGreaterThan(20);
    expect(Object.keys(modules).map((file) => /([a-z-]+)\.tsx$/.exec(file)![1]).sort()).toEqual(kinds.map(routeName).sort());
  });

  it('loads a kind’s module once, then renders it synchronously', async () => {
    let loads = 0;
    const home = modules['./routes/home.tsx']!;
    const table = new RouteTable({
      './routes/home.tsx': () => {
        loads++;
        return Promise.resolve(home);
      },
    });
    expect(() => table.component('home')).toThrow('The route module of home is not loaded');
    await table.load('home');
    await table.load('home');
    expect(loads).toBe(1);
    expect(table.component('home')).toBe(home.default);
    await expect(table.load('courseIndex')).rejects.toThrow('No route module for the page kind courseIndex');
  });
});

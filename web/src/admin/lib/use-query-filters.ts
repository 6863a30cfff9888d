import { useSearchParams } from 'react-router';
import { withQuery } from './admin-api';

/**
 * A list's filters kept in the address, so a filtered list can be shared,
 * reloaded and gone back to: what each of `names` is now ('' when not
 * given), `apiPath` asked with them, the address's query with some values
 * changed (a link to another view or page) and `apply`, which goes there.
 * A blank value takes a parameter out; the others stay.
 */
export function useQueryFilters<F extends string>(names: readonly F[], apiPath: string) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(names.map((name) => [name, params.get(name) ?? ''])) as Record<F, string>;
  function searchWith(next: Record<string, string | null>): string {
    const changed = new URLSearchParams(params);
    for (const [name, value] of Object.entries(next)) {
      if (value) changed.set(name, value);
      else changed.delete(name);
    }
    const search = changed.toString();
    return search ? `?${search}` : '';
  }
  return {
    values,
    params,
    path: withQuery(apiPath, values),
    searchWith,
    apply: (next: Record<string, string | null>) => setParams(searchWith(next)),
  };
}

export type QueryFilters<F extends string> = ReturnType<typeof useQueryFilters<F>>;

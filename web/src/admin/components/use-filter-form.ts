import type { z } from 'zod';
import type { QueryFilters } from '../lib/use-query-filters';
import { useAdminForm } from './use-admin-form';

/** A list's filter form: it shows what the address has, and sending it puts the chosen filters there, from the first page. */
export function useFilterForm<F extends string>(filters: QueryFilters<F>, schema: z.ZodType<Record<F, string>, Record<F, string>>, labels: Record<F, string>) {
  return useAdminForm({
    schema,
    defaultValues: filters.values,
    values: filters.values,
    labels,
    send: (chosen) => {
      filters.apply({ ...chosen, before: null, after: null });
      // The list below says what it found.
      return Promise.resolve('');
    },
  });
}

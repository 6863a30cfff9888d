import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { ChoiceField, TextField, type Choice } from '../../components/form-fields';
import { useFilterForm } from '../../components/use-filter-form';
import type { QueryFilters } from '../../lib/use-query-filters';

export const SESSION_FILTERS = ['course', 'from', 'to'] as const;

const schema = z
  .object({ course: z.string(), from: z.string(), to: z.string() })
  .refine(({ from, to }) => !from || !to || from <= to, { path: ['to'], error: 'Choose a date on or after the first date' });

/** The sessions list's filters: a course and a date range. */
export function SessionFilters({ filters, courses }: { filters: QueryFilters<(typeof SESSION_FILTERS)[number]>; courses: Choice[] | undefined }) {
  const form = useFilterForm(filters, schema, { course: 'Course', from: 'From', to: 'To' });
  return (
    <AdminFormView form={form} submit="Show sessions" className="filters">
      <ChoiceField form={form} name="course" choices={courses ?? []} none="All courses" />
      <TextField form={form} name="from" type="date" hint="Leave empty to list from today; with only a last date, every session up to it." />
      <TextField form={form} name="to" type="date" />
    </AdminFormView>
  );
}

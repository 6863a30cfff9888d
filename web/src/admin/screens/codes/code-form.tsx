import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { CheckboxesField, CheckboxField, RadioField, TextField } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import type { Code, CodeType } from '../../lib/api-types';
import { oneOf, optionalDate, optionalWholeNumber, penceFromPounds, poundsFromPence, requiredText } from '../../lib/form-rules';
import { useCourseChoices, useSectionChoices } from '../../lib/reference-data';

// A discount code's terms (decision 017): a percentage or an amount off
// (typed in pounds, sent in pence), when it expires, how many times it may
// be used, and the courses and course sections it is limited to (none: all).

export type CodeTerms = Omit<Code, 'uses' | 'state'>;

const TYPES: readonly [CodeType, ...CodeType[]] = ['percent', 'pound'];
const TYPE_CHOICES = [
  { value: 'percent', label: 'A percentage off' },
  { value: 'pound', label: 'An amount off, in pounds' },
];

/** What was typed as the discount, as the API holds it: a whole percentage, or pence; null when it is neither. */
function discountValue(type: CodeType, typed: string): number | null {
  if (type === 'pound') {
    const pence = penceFromPounds(typed);
    return pence !== null && pence > 0 ? pence : null;
  }
  return /^\d+$/.test(typed.trim()) && Number(typed) >= 1 && Number(typed) <= 100 ? Number(typed) : null;
}

const schema = z
  .object({
    code: requiredText('Enter the code').regex(/^[A-Za-z0-9_-]+$/, { error: 'Use letters, digits, hyphens and underscores only', abort: true }),
    type: oneOf(TYPES, 'Choose the kind of discount'),
    value: requiredText('Enter the discount'),
    expiresOn: optionalDate(),
    maxUses: optionalWholeNumber(1),
    active: z.boolean(),
    sectionSlugs: z.array(z.string()),
    courseIds: z.array(z.string()),
  })
  .transform((terms, context) => {
    const value = discountValue(terms.type, terms.value);
    if (value === null) {
      const message = terms.type === 'pound' ? 'Enter an amount in pounds, like 25 or 12.50' : 'Enter a whole percentage from 1 to 100';
      context.addIssue({ code: 'custom', path: ['value'], message });
      return z.NEVER;
    }
    return { ...terms, value };
  });

type CodeInput = z.input<typeof schema>;

const LABELS: Record<keyof CodeInput, string> = {
  code: 'Code',
  type: 'Kind of discount',
  value: 'Discount',
  expiresOn: 'Expires on',
  maxUses: 'Most uses',
  active: 'Active: buyers can use it',
  sectionSlugs: 'Only for these course sections',
  courseIds: 'Only for these courses',
};

function valuesOf(code: Code | undefined): CodeInput {
  if (!code) return { code: '', type: '', value: '', expiresOn: '', maxUses: '', active: true, courseIds: [], sectionSlugs: [] };
  return {
    code: code.code,
    type: code.type,
    value: code.type === 'pound' ? poundsFromPence(code.value) : String(code.value),
    expiresOn: code.expiresOn ?? '',
    maxUses: code.maxUses === null ? '' : String(code.maxUses),
    active: code.active,
    courseIds: code.courseIds,
    sectionSlugs: code.sectionSlugs,
  };
}

export function CodeForm({ code, submit, send }: { code?: Code; submit: string; send: (terms: CodeTerms) => Promise<string> }) {
  const courses = useCourseChoices();
  const sections = useSectionChoices();
  const form = useAdminForm({ schema, defaultValues: valuesOf(code), labels: LABELS, send });
  return (
    <AdminFormView form={form} submit={submit}>
      {code ? (
        <p>
          <strong>Code:</strong> <code>{code.code}</code>
        </p>
      ) : (
        <TextField form={form} name="code" hint="What buyers type at the checkout" required />
      )}
      <RadioField form={form} name="type" choices={TYPE_CHOICES} required />
      <TextField form={form} name="value" inputMode="decimal" hint="A percentage (like 10), or pounds (like 25.00)" required />
      <TextField form={form} name="expiresOn" type="date" hint="Leave blank for no end date" />
      <TextField form={form} name="maxUses" inputMode="numeric" hint="Leave blank for no limit" />
      <CheckboxField form={form} name="active" />
      <CheckboxesField form={form} name="sectionSlugs" choices={sections ?? []} hint="Tick none for every section" />
      <CheckboxesField form={form} name="courseIds" choices={courses ?? []} filter="Find a course by name" hint="Tick none for every course" />
    </AdminFormView>
  );
}

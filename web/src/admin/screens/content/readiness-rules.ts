import { z } from 'zod';
import type { AskedDocument } from '../../../generated/AskedDocument';
import type { FormKind } from '../../../generated/FormKind';
import type { Requirements } from '../../../generated/Requirements';
import type { Part } from '../../components/compound-fields';
import { wholeNumber } from '../../lib/form-rules';

// What an in-person course asks of each booked student before training
// (decision 032): the forms they complete, the documents they send, and
// how many days before the first day it is all due. The server checks the
// same rules (`enrol_domain::readiness::Requirements::check`).

export const FORM_CHOICES: readonly { value: FormKind; label: string }[] = [
  { value: 'consultation', label: 'Consultation form' },
  { value: 'medical', label: 'Medical questionnaire (special category data)' },
];

export const DOCUMENT_PARTS: readonly Part[] = [
  { name: 'title', label: 'Document', hint: 'For example “Photo ID” or “Level 3 qualification or healthcare registration”' },
  { name: 'description', label: 'What we accept', multiline: true },
];

export const readinessForms = () => z.array(z.enum(['consultation', 'medical']));

/** The documents asked for; a pair left wholly blank is dropped. */
export const readinessDocuments = () =>
  z.array(z.object({ title: z.string(), description: z.string() })).transform((typed, context): AskedDocument[] => {
    const asked = typed.map((d) => ({ title: d.title.trim(), description: d.description.trim() })).filter((d) => d.title || d.description);
    if (asked.some((d) => !d.title)) {
      context.addIssue({ code: 'custom', message: 'Name each document, for example “Photo ID”' });
      return z.NEVER;
    }
    if (new Set(asked.map((d) => d.title.toLowerCase())).size !== asked.length) {
      context.addIssue({ code: 'custom', message: 'Ask for each document once' });
      return z.NEVER;
    }
    if (asked.length > 8) {
      context.addIssue({ code: 'custom', message: 'Ask for at most 8 documents' });
      return z.NEVER;
    }
    return asked;
  });

export const readinessDueDays = () => wholeNumber('Enter how many days before training', 0).refine((days) => days <= 60, 'Enter 60 or fewer');

/** The body's `readiness`, or none when the course asks nothing. */
export function readinessOf(forms: FormKind[], documents: AskedDocument[], dueDays: number): Requirements | undefined {
  return forms.length || documents.length ? { forms, documents, due_days_before: dueDays } : undefined;
}

/** The form's values of a body's `readiness`. */
export const readinessValues = (readiness: Requirements | undefined) => ({
  readiness_forms: readiness?.forms ?? [],
  readiness_documents: readiness?.documents ?? [],
  readiness_due_days: String(readiness?.due_days_before ?? 7),
});

import { z } from 'zod';
import type { ContentKind } from '../../../generated/ContentKind';
import type { Faq } from '../../../generated/Faq';
import type { ImageRef } from '../../../generated/ImageRef';
import type { KitBody } from '../../../generated/KitBody';
import type { Part } from '../../components/compound-fields';
import { poundsFromPence, requiredText, SLUG, wholeNumber } from '../../lib/form-rules';

// The pieces of the content forms' schemas that are more than one text: an
// image, a kit, questions and answers, a document's key. Each reports one
// message under its own name, as the server does (`image`, `kit`, `faqs`).
// Money: a course's and a level's price are typed in pounds and sent in
// pence by `pounds()` (integer maths on the typed digits, never floats); a
// kit's prices are whole pounds in the pack, so they stay whole pounds.

/** The key of a new document: a level's number, or a slug. */
export function keyRule(kind: ContentKind) {
  if (kind === 'pathway') return requiredText('Enter the level').regex(/^[1-9]$/, { error: 'Enter a level from 1 to 9', abort: true });
  return requiredText('Enter the key').regex(SLUG, { error: 'Use lower-case letters, digits and single hyphens, like chemical-peels', abort: true });
}

/** Where it comes in its list. */
export const position = () => wholeNumber('Enter its place in the list', 0);

export const IMAGE_PARTS: readonly Part[] = [
  { name: 'file', image: 'image', alt: 'alt' },
  { name: 'alt', label: 'Alternative text', hint: 'What the image shows, for those who cannot see it', required: true },
];

export const image = () =>
  z.object({ file: z.string(), alt: z.string() }).transform((typed, context): ImageRef => {
    const [file, alt] = [typed.file.trim(), typed.alt.trim()];
    if (!file || !alt) {
      context.addIssue({ code: 'custom', message: file ? 'Describe the image for those who cannot see it' : 'Choose the image from the media library' });
      return z.NEVER;
    }
    return { file, alt };
  });

export const KIT_PARTS: readonly Part[] = [
  { name: 'name', label: 'Kit name', hint: 'Leave blank when the course has no kit to choose' },
  { name: 'price', label: 'Kit price (whole £)', inputMode: 'numeric', hint: 'Whole pounds, like 150' },
  { name: 'worth', label: 'Kit worth (whole £)', inputMode: 'numeric', hint: 'What it would cost bought alone' },
  { name: 'note', label: 'Note', multiline: true },
];

const wholePounds = (typed: string) => (typed.trim() === '' ? null : /^\d+$/.test(typed.trim()) ? Number(typed.trim()) : undefined);

export const kit = () =>
  z.object({ name: z.string(), price: z.string(), worth: z.string(), note: z.string() }).transform((typed, context): KitBody | null => {
    const [price, worth] = [wholePounds(typed.price), wholePounds(typed.worth)];
    if (price === undefined || worth === undefined) {
      context.addIssue({ code: 'custom', message: 'Enter the kit’s prices in whole pounds, or leave them blank' });
      return z.NEVER;
    }
    const [name, note] = [typed.name.trim() || null, typed.note.trim() || null];
    return name === null && note === null && price === null && worth === null ? null : { name, price, worth, note };
  });

export const kitValues = (body: KitBody | null) => ({
  name: body?.name ?? '',
  price: body?.price == null ? '' : String(body.price),
  worth: body?.worth == null ? '' : String(body.worth),
  note: body?.note ?? '',
});

export const FAQ_PARTS: readonly Part[] = [
  { name: 'question', label: 'Question' },
  { name: 'answer', label: 'Answer', multiline: true },
];

/** Questions and answers; a pair left wholly blank is dropped. */
export const faqs = () =>
  z.array(z.object({ question: z.string(), answer: z.string() })).transform((typed, context): Faq[] => {
    const pairs = typed.map((faq) => ({ question: faq.question.trim(), answer: faq.answer.trim() })).filter((faq) => faq.question || faq.answer);
    if (pairs.some((faq) => !faq.question || !faq.answer)) {
      context.addIssue({ code: 'custom', message: 'Every question needs an answer' });
      return z.NEVER;
    }
    return pairs;
  });

/** A price in pence as the form shows it, in pounds. */
export const poundsOf = (pence: number | null) => (pence === null ? '' : poundsFromPence(pence));

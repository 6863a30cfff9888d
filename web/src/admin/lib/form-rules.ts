import { z } from 'zod';
import { emailProblem } from '../../lib/contact-rules';

// What the back office's forms accept, as zod pieces the screens' schemas
// are made of: each checks what was typed and turns it into what the API
// takes (pounds into pence, a blank into null). The server checks again.
// A field's first failed check stops its others (`abort`), so it has one
// message, the first that applies.

const POUNDS = /^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/;

/** '£1,234.5' as 123450 pence; null when it is not an amount in pounds. */
export function penceFromPounds(typed: string): number | null {
  const plain = typed.trim().replace(/^£/, '');
  if (!POUNDS.test(plain)) return null;
  const [pounds = '0', pence = ''] = plain.replace(/,/g, '').split('.');
  return Number(pounds) * 100 + Number(pence.padEnd(2, '0'));
}

/** 123450 pence as '1234.50', for a field that edits an amount. */
export function poundsFromPence(pence: number): string {
  return `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
}

const stop = (error: string) => ({ error, abort: true });

/** Text that must be there; sent trimmed. */
export const requiredText = (missing: string) => z.string().trim().min(1, stop(missing));

/** An amount in pounds, sent in pence; at least `min` pence. */
export const pounds = (missing: string, min = 0) =>
  requiredText(missing)
    .refine((typed) => penceFromPounds(typed) !== null, stop('Enter an amount in pounds, like 49.50'))
    .transform((typed) => penceFromPounds(typed) ?? 0)
    .refine((pence) => pence >= min, `Enter at least £${poundsFromPence(min)}`);

/** An amount in pounds, sent in pence, or nothing (null). */
export const optionalPounds = () =>
  z
    .string()
    .trim()
    .refine((typed) => typed === '' || penceFromPounds(typed) !== null, stop('Enter an amount in pounds, like 49.50, or leave it blank'))
    .transform((typed) => (typed === '' ? null : penceFromPounds(typed)));

/** A whole number, `min` or more. */
export const wholeNumber = (missing: string, min: number) =>
  requiredText(missing)
    .regex(/^\d+$/, stop('Enter a whole number'))
    .transform(Number)
    .refine((value) => value >= min, `Enter ${min} or more`);

/** A whole number or nothing (null). */
export const optionalWholeNumber = (min: number) =>
  z
    .string()
    .trim()
    .regex(/^\d*$/, stop('Enter a whole number, or leave it blank'))
    .transform((typed) => (typed === '' ? null : Number(typed)))
    .refine((value) => value === null || value >= min, `Enter ${min} or more, or leave it blank`);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date as `YYYY-MM-DD`, as a date input gives it. */
export const date = (missing: string) => requiredText(missing).regex(DATE, stop('Enter a date, like 2026-12-15'));

/** A date or nothing (null). */
export const optionalDate = () =>
  z
    .string()
    .trim()
    .refine((typed) => typed === '' || DATE.test(typed), stop('Enter a date, like 2026-12-15, or leave it blank'))
    .transform((typed) => (typed === '' ? null : typed));

/** A time of day as `HH:MM`. */
export const time = (missing: string) => requiredText(missing).regex(/^([01]\d|2[0-3]):[0-5]\d$/, stop('Enter a time, like 09:30'));

/** An email address, by the site's own rule (contact-rules). */
export const email = () =>
  requiredText('Enter an email address').superRefine((typed, context) => {
    const problem = emailProblem(typed);
    if (problem) context.addIssue({ code: 'custom', message: problem, abort: true });
  });

/** The six digits an authenticator app shows; spaces typed between them are dropped. */
/** A second factor at sign-in: the authenticator's 6 digits, or a recovery code (16 letters and digits, hyphens and spaces aside). */
export const secondFactor = () =>
  z
    .string()
    .transform((typed) => typed.replace(/\s/g, ''))
    .refine((typed) => /^\d{6}$/.test(typed) || /^[0-9a-z]{16}$/i.test(typed.replace(/-/g, '')), stop('Enter the 6-digit code from your authenticator app, or a recovery code'));

export const authenticatorCode = () =>
  z
    .string()
    .transform((typed) => typed.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, stop('Enter the 6-digit code from your authenticator app')));

/** Lower-case letters, digits and single hyphens: a key or an address's last part, as `enrol_domain::content::is_slug` checks it. */
export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Text of one item a line (a course's includes), sent as the list of the lines not blank. */
export const lines = () => z.string().transform((typed) => typed.split('\n').map((line) => line.trim()).filter(Boolean));

/** Text of items separated by commas (tags), sent as the list. */
export const commaList = () => z.string().transform((typed) => typed.split(',').map((item) => item.trim()).filter(Boolean));

/** An id chosen from a list, or nothing (null). */
export const optionalChoice = () => z.string().transform((chosen) => chosen || null);

/** One of `values`, chosen from a list or a group of radios; none chosen yet is ''. */
export const oneOf = <V extends string>(values: readonly [V, ...V[]], missing: string) => z.string().pipe(z.enum(values, { error: missing }));

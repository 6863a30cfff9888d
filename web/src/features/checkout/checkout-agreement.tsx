import type { Agreed } from '../../generated/Agreed';
import type { FieldBinding } from '../../components/ui/use-form';
import { TermsWords } from '../../components/terms-words';
import { CONSENT_VERSION, ENTRY_REQUIREMENTS_MISSING, entryRequirements, TERMS_MISSING } from '../../lib/consent-texts';
import type { CheckoutRow } from './checkout-lines';

// What the buyer agrees to before paying (decision 020): the terms and the
// cancellation policy, and, for each course with entry requirements, that
// they meet them, in the words the server records with the order. The
// boxes are fields of the checkout's form, named as the server names their
// messages; the confirmed courses are kept as one field, their ids joined.

export const AGREED_FIELDS = ['agreed.entryRequirements', 'agreed.terms'] as const;
export type AgreedField = (typeof AGREED_FIELDS)[number];
export const EMPTY_AGREED: Record<AgreedField, string> = { 'agreed.entryRequirements': '', 'agreed.terms': '' };

const TICKED = 'yes';

/** A course of the order whose entry requirements the buyer confirms. */
interface RequiringCourse {
  courseId: string;
  title: string;
  url: string;
  requirements: string;
}

export function requiringCourses(rows: CheckoutRow[]): RequiringCourse[] {
  return rows.flatMap(({ line }) =>
    line.entryRequirements === null ? [] : [{ courseId: line.courseId, title: line.title, url: line.url, requirements: line.entryRequirements }],
  );
}

const confirmedIds = (value: string) => value.split(' ').filter(Boolean);

export function validateAgreed(values: Record<AgreedField, string>, requiring: RequiringCourse[]): Partial<Record<AgreedField, string>> {
  const confirmed = confirmedIds(values['agreed.entryRequirements']);
  return {
    ...(requiring.some((course) => !confirmed.includes(course.courseId)) ? { 'agreed.entryRequirements': ENTRY_REQUIREMENTS_MISSING } : {}),
    ...(values['agreed.terms'] === TICKED ? {} : { 'agreed.terms': TERMS_MISSING }),
  };
}

/** What the server is told was agreed to. */
export function agreedOf(values: Record<AgreedField, string>, requiring: RequiringCourse[]): Agreed {
  const confirmed = confirmedIds(values['agreed.entryRequirements']);
  return {
    version: CONSENT_VERSION,
    terms: values['agreed.terms'] === TICKED,
    digitalContent: false,
    entryRequirements: requiring.map((course) => course.courseId).filter((id) => confirmed.includes(id)),
  };
}

function FieldError({ binding }: { binding: FieldBinding }) {
  return binding.error ? <p id={`${binding.id}-error`} className="field-error">{binding.error}</p> : null;
}

export function CheckoutAgreement({ field, requiring }: { field: (name: AgreedField) => FieldBinding; requiring: RequiringCourse[] }) {
  const entry = field('agreed.entryRequirements');
  const terms = field('agreed.terms');
  const confirmed = confirmedIds(entry.value);
  const toggle = (courseId: string, ticked: boolean) =>
    entry.onChange([...confirmed.filter((id) => id !== courseId), ...(ticked ? [courseId] : [])].join(' '));
  return (
    <div className="checkout-agreement">
      {requiring.length > 0 && (
        <fieldset className={entry.error ? 'checkout-requirements has-error' : 'checkout-requirements'}>
          <legend>Entry requirements</legend>
          <FieldError binding={entry} />
          {requiring.map((course, index) => {
            const id = index === 0 ? entry.id : `${entry.id}-${index}`;
            return (
              <div key={course.courseId} className="check-field">
                <input
                  type="checkbox"
                  id={id}
                  checked={confirmed.includes(course.courseId)}
                  aria-invalid={entry.error && !confirmed.includes(course.courseId) ? true : undefined}
                  aria-describedby={entry.error ? `${entry.id}-error ${id}-hint` : `${id}-hint`}
                  onChange={(event) => toggle(course.courseId, event.target.checked)}
                />
                <label htmlFor={id}>{entryRequirements(course.title)}</label>
                <p id={`${id}-hint`} className="form-note">
                  {`${course.requirements} `}
                  <a href={`${course.url}#entry-requirements`}>
                    How to show you meet them{' '}
                    <span className="visually-hidden">{`for ${course.title}`}</span>
                  </a>
                </p>
              </div>
            );
          })}
        </fieldset>
      )}
      <div className={terms.error ? 'check-field has-error' : 'check-field'}>
        <FieldError binding={terms} />
        <input
          type="checkbox"
          id={terms.id}
          checked={terms.value === TICKED}
          aria-invalid={terms.error ? true : undefined}
          aria-describedby={terms.error ? `${terms.id}-error` : undefined}
          onChange={(event) => terms.onChange(event.target.checked ? TICKED : '')}
        />
        <label htmlFor={terms.id}>
          <TermsWords />
        </label>
      </div>
    </div>
  );
}

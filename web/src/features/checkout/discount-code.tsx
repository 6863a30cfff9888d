import type { CodeRequest } from '../../generated/CodeRequest';
import type { CodeResponse } from '../../generated/CodeResponse';
import { ApiError, failureMessage, postJson } from '../../lib/api';
import { reportError } from '../../lib/report-error';
import type { Discount } from '../../generated/Discount';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import { codeReaches } from './pricing';

const CODE_PATH = '/api/code';
const INVALID = 'Invalid code provided';
const NOT_FOR_THESE_COURSES = 'This code does not apply to the courses in your basket';

export interface AppliedDiscount extends Discount {
  code: string;
  /** The courses the code is limited to; `null`: every course. */
  courseIds: string[] | null;
}

/** The server's answer for a code it does not know, or that no longer applies. */
class InvalidCode extends Error {}

/** A code limited to courses none of which is in the basket. */
class NotForTheseCourses extends Error {}

/** What the box says when checking failed: a 429's own words, and it reports what never reached the server. */
function failure(error: unknown) {
  if (error instanceof InvalidCode) return INVALID;
  if (error instanceof NotForTheseCourses) return NOT_FOR_THESE_COURSES;
  if (error instanceof ApiError) return failureMessage(error, INVALID);
  reportError(error, { action: 'check a discount code' });
  return 'An error occured';
}

/**
 * Checks a discount code with the server and hands a valid one that
 * reaches any of the basket's `courseIds` up (docs/product.md#pricing; its
 * messages are under #errors there). The box's states: missing, loading
 * and error are the form's; valid is the parent's, which hides the box
 * once a code applies.
 */
export function DiscountCode({ courseIds, onApply }: {
  courseIds: readonly string[];
  onApply: (discount: AppliedDiscount) => void;
}) {
  const form = useForm({
    fields: ['code'],
    initial: { code: '' },
    validate: ({ code }) => (code.trim() ? {} : { code: 'Discount code required' }),
    send: async ({ code }) => {
      const entered = code.trim();
      const answer = await postJson<CodeResponse | null>(CODE_PATH, { code: entered } satisfies CodeRequest);
      if (!answer?.valid || !answer.type || answer.value === null) throw new InvalidCode();
      const reach = answer.courseIds ?? null;
      if (reach !== null && !courseIds.some((courseId) => codeReaches(reach, courseId))) throw new NotForTheseCourses();
      onApply({ code: answer.code ?? entered, type: answer.type, value: answer.value, courseIds: reach });
    },
    failure,
    messageField: 'code',
  });
  const checking = form.status === 'sending';

  return (
    <form className="discount-code" noValidate onSubmit={form.submit}>
      <Field
        {...form.field('code')}
        label="Discount code"
        required={false}
        autoComplete="off"
        alert
        action={
          <button type="submit" className="button button-small" aria-disabled={checking}>
            {checking ? (
              <>
                <span className="spinner" aria-hidden="true" />
                Checking
              </>
            ) : (
              'Apply'
            )}
          </button>
        }
      />
    </form>
  );
}

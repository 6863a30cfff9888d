import { useId, useState, type FormEvent } from 'react';
import type { CodeRequest } from '../../generated/CodeRequest';
import type { CodeResponse } from '../../generated/CodeResponse';
import { ApiError, failureMessage, postJson } from '../../lib/api';
import { reportError } from '../../lib/report-error';
import type { Discount } from '../../generated/Discount';

const CODE_PATH = '/api/code';

export interface AppliedDiscount extends Discount {
  code: string;
}

// §4 discount box states; 'valid' is the parent's: the box is hidden once a code applies.
type BoxState = { state: 'missing' } | { state: 'loading' } | { state: 'error'; message: string };

/** §3, §5, §8: checks a discount code with the server and hands a valid one up. */
export function DiscountCode({ onApply }: { onApply: (discount: AppliedDiscount) => void }) {
  const id = useId();
  const [code, setCode] = useState('');
  const [box, setBox] = useState<BoxState>({ state: 'missing' });
  const loading = box.state === 'loading';
  const error = box.state === 'error' ? box.message : null;

  async function apply(event: FormEvent) {
    event.preventDefault();
    if (loading) return;
    const entered = code.trim();
    if (!entered) {
      setBox({ state: 'error', message: 'Discount code required' });
      return;
    }
    setBox({ state: 'loading' });
    try {
      const answer = await postJson<CodeResponse | null>(CODE_PATH, { code: entered } satisfies CodeRequest);
      if (answer?.valid && answer.type && answer.value !== null) {
        onApply({ code: answer.code ?? entered, type: answer.type, value: answer.value });
      } else {
        setBox({ state: 'error', message: 'Invalid code provided' });
      }
    } catch (failure) {
      if (!(failure instanceof ApiError)) reportError(failure, { action: 'check a discount code' });
      setBox({ state: 'error', message: failureMessage(failure, failure instanceof ApiError ? 'Invalid code provided' : 'An error occured') });
    }
  }

  return (
    <form className="discount-code" noValidate onSubmit={(event) => void apply(event)}>
      <div className={error ? 'field has-error' : 'field'}>
        <label htmlFor={`${id}-code`}>Discount code</label>
        <p id={`${id}-error`} className="field-error" role="alert">{error}</p>
        <div className="inline-field">
          <input
            id={`${id}-code`}
            value={code}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setCode(event.target.value);
              if (error) setBox({ state: 'missing' });
            }}
          />
          <button type="submit" className="button button-small" aria-disabled={loading}>
            {loading ? (
              <>
                <span className="spinner" aria-hidden="true" />
                Checking
              </>
            ) : (
              'Apply'
            )}
          </button>
        </div>
      </div>
    </form>
  );
}

import { CANCELLATION_PATH, TERMS_PATH } from '../lib/consent-texts';

/** The words of `TERMS`, with the terms and the cancellation policy linked: a box's label at both checkouts. */
export function TermsWords() {
  return (
    <>
      I accept the <a href={TERMS_PATH}>terms and conditions</a>, including the <a href={CANCELLATION_PATH}>cancellation policy</a>.
    </>
  );
}

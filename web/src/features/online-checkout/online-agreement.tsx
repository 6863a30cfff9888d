import { useId, useState, type ReactNode } from 'react';
import { reveal } from '../../components/ui/reveal';
import { TermsWords } from '../../components/terms-words';
import { DIGITAL_CONTENT, DIGITAL_CONTENT_MISSING, TERMS_MISSING } from '../../lib/consent-texts';

// The two boxes of the online basket (decision 020): the terms, and the
// express request to start at once with the loss of the 14-day right to
// cancel that comes with it (Consumer Contracts Regulations, reg. 37).
// Book Now asks for both; an unticked box says so and takes the focus.

type Box = 'terms' | 'digitalContent';

const MISSING: Record<Box, string> = { terms: TERMS_MISSING, digitalContent: DIGITAL_CONTENT_MISSING };

export function useOnlineAgreement() {
  const id = useId();
  const [ticked, setTicked] = useState<Record<Box, boolean>>({ terms: false, digitalContent: false });
  const [shown, setShown] = useState<Partial<Record<Box, string>>>({});
  const boxId = (box: Box) => `${id}-${box}`;

  /** Whether both are ticked; if not, says which is not and takes the focus there. */
  function check(): boolean {
    const missing = (['digitalContent', 'terms'] as const).filter((box) => !ticked[box]);
    setShown(Object.fromEntries(missing.map((box) => [box, MISSING[box]])));
    if (missing[0]) reveal(document.getElementById(boxId(missing[0])));
    return missing.length === 0;
  }

  function tick(box: Box, value: boolean) {
    setTicked((current) => ({ ...current, [box]: value }));
    if (value) setShown((current) => ({ ...current, [box]: undefined }));
  }

  return { boxId, ticked, shown, tick, check };
}

function Box({ agreement, box, children }: { agreement: ReturnType<typeof useOnlineAgreement>; box: Box; children: ReactNode }) {
  const id = agreement.boxId(box);
  const error = agreement.shown[box];
  return (
    <div className={error ? 'check-field has-error' : 'check-field'}>
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
      <input
        type="checkbox"
        id={id}
        checked={agreement.ticked[box]}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => agreement.tick(box, event.target.checked)}
      />
      <label htmlFor={id}>{children}</label>
    </div>
  );
}

export function OnlineAgreement({ agreement }: { agreement: ReturnType<typeof useOnlineAgreement> }) {
  return (
    <div className="drawer-agreement">
      <Box agreement={agreement} box="digitalContent">{DIGITAL_CONTENT}</Box>
      <Box agreement={agreement} box="terms">
        <TermsWords />
      </Box>
    </div>
  );
}

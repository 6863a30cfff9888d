import { lazy, Suspense } from 'react';
import { bannerWanted, useConsent } from './consent-context';

// A visitor who has chosen never sees the banner again unless they ask: its
// code loads only when it is wanted (decision 012). It is never part of the
// server's HTML, so nothing hydrates against it.
const ConsentBanner = lazy(() => import('./consent-banner').then(({ ConsentBanner }) => ({ default: ConsentBanner })));

export function ConsentPrompt() {
  return (
    bannerWanted(useConsent()) && (
      <Suspense fallback={null}>
        <ConsentBanner />
      </Suspense>
    )
  );
}

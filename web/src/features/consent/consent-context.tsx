import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { TrackingConfig } from '../../generated/TrackingConfig';
import { clearSourceParams, saveSourceParams } from '../../lib/source-params';
import { TRACK_EVENT, type TrackingParams } from '../../lib/tracking';
import { readConsent, saveConsent, type Consent, type ConsentChoice } from './consent-storage';
import { forwardEvent } from './forward-event';
import { loadTools, readTrackingConfig, updateTagManagerConsent } from './tool-loader';

interface ConsentState {
  /** Null on the server and until the browser has read the stored choice. */
  consent: Consent | null;
  /** The visitor asked to see their choices again. */
  settingsOpen: boolean;
  choose(choice: ConsentChoice): void;
  openSettings(): void;
}

const ConsentContext = createContext<ConsentState | null>(null);

export function useConsent(): ConsentState {
  const state = useContext(ConsentContext);
  if (!state) throw new Error('useConsent must be used inside ConsentProvider');
  return state;
}

/** What this page load started with, read once in the browser. */
interface Visit {
  tools: TrackingConfig;
  /** The landing URL's query, kept for the source params (§9). */
  landingSearch: string;
}

/**
 * The visitor's cookie choice and everything that follows from it: the
 * granted tools are loaded, tracking events reach them, and the landing
 * page's source params are kept only with marketing consent.
 */
export function ConsentProvider({ children }: { children: ReactNode }) {
  const [consent, setConsent] = useState<Consent | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const visit = useRef<Visit | null>(null);
  const reopenedFrom = useRef<HTMLElement | null>(null);

  useEffect(() => {
    visit.current ??= { tools: readTrackingConfig(), landingSearch: window.location.search };
    setConsent(readConsent());
  }, []);

  useEffect(() => {
    if (!consent || !visit.current) return;
    loadTools(visit.current.tools, consent);
    if (consent.marketing) saveSourceParams(visit.current.landingSearch);
    else if (consent.decided) clearSourceParams();
  }, [consent]);

  const analytics = consent?.analytics ?? false;
  const marketing = consent?.marketing ?? false;
  useEffect(() => {
    if (!analytics && !marketing) return;
    const forward = (event: Event) => {
      const { name, params } = (event as CustomEvent<{ name: string; params: TrackingParams }>).detail;
      forwardEvent(name, params, { analytics, marketing });
    };
    window.addEventListener(TRACK_EVENT, forward);
    return () => window.removeEventListener(TRACK_EVENT, forward);
  }, [analytics, marketing]);

  const choose = useCallback((choice: ConsentChoice) => {
    updateTagManagerConsent(choice);
    setConsent(saveConsent(choice));
    setSettingsOpen(false);
    // Back to the Cookie settings button the choices were reopened from.
    reopenedFrom.current?.focus();
    reopenedFrom.current = null;
  }, []);
  const openSettings = useCallback(() => {
    reopenedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setSettingsOpen(true);
  }, []);

  const state = useMemo(() => ({ consent, settingsOpen, choose, openSettings }), [consent, settingsOpen, choose, openSettings]);
  return <ConsentContext.Provider value={state}>{children}</ConsentContext.Provider>;
}

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { clearSourceParams, saveSourceParams } from '../../lib/source-params';
import { TRACK_EVENT, type TrackingParams } from '../../lib/tracking';
import { readConsent, saveConsent, type Consent, type ConsentChoice } from './consent-storage';
import type * as ToolLoaderModule from './tool-loader';

// The tools' code loads only once the visitor grants a category (decision
// 012): most visitors never need it.
type ToolLoader = typeof ToolLoaderModule;
let toolLoader: Promise<ToolLoader> | null = null;
const loadToolLoader = () => (toolLoader ??= import('./tool-loader'));

interface ConsentState {
  /** Null on the server and until the browser has read the stored choice. */
  consent: Consent | null;
  /** The college configured at least one analytics or marketing tool: only then is there anything to ask. */
  toolsConfigured: boolean;
  /** The visitor asked to see their choices again. */
  settingsOpen: boolean;
  choose: (choice: ConsentChoice) => void;
  openSettings: () => void;
}

const ConsentContext = createContext<ConsentState | null>(null);

/**
 * The banner is wanted: the stored choice is read and there is none yet
 * while there is a tool to ask about, or the visitor asked to
 * see it again.
 */
export function bannerWanted({ consent, settingsOpen, toolsConfigured }: Pick<ConsentState, 'consent' | 'settingsOpen' | 'toolsConfigured'>): boolean {
  return consent !== null && ((toolsConfigured && !consent.decided) || settingsOpen);
}

const TOOL_KEYS = ['tagManager', 'heap', 'clarity', 'metaPixel', 'tiktok', 'klaviyo'];

/** Whether the server put any analytics or marketing tool's id beside the page. */
function anyToolConfigured(): boolean {
  try {
    const config = JSON.parse(document.getElementById('__ENROL_TRACKING__')?.textContent ?? '{}') as Record<string, unknown>;
    return TOOL_KEYS.some((key) => typeof config[key] === 'string' && config[key] !== '');
  } catch {
    return false;
  }
}

export function useConsent(): ConsentState {
  const state = useContext(ConsentContext);
  if (!state) throw new Error('useConsent must be used inside ConsentProvider');
  return state;
}


/**
 * The visitor's cookie choice and everything that follows from it: the
 * granted tools are loaded, tracking events reach them, and the landing
 * page's source params are kept only with marketing consent.
 */
export function ConsentProvider({ children }: { children: ReactNode }) {
  const [consent, setConsent] = useState<Consent | null>(null);
  const [toolsConfigured, setToolsConfigured] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The landing URL's query, kept as the order's marketing source: read once in the browser.
  const landingSearch = useRef<string | null>(null);
  const reopenedFrom = useRef<HTMLElement | null>(null);

  useEffect(() => {
    landingSearch.current ??= window.location.search;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the stored choice is the browser's: read after hydration, so the first render matches the server's
    setConsent(readConsent());
    setToolsConfigured(anyToolConfigured());
  }, []);

  useEffect(() => {
    if (!consent || landingSearch.current === null) return;
    if (consent.analytics || consent.marketing) {
      void loadToolLoader().then(({ loadTools, readTrackingConfig }) => loadTools(readTrackingConfig(), consent));
    }
    if (consent.marketing) saveSourceParams(landingSearch.current);
    else if (consent.decided) clearSourceParams();
  }, [consent]);

  const analytics = consent?.analytics ?? false;
  const marketing = consent?.marketing ?? false;
  useEffect(() => {
    if (!analytics && !marketing) return;
    const forward = (event: Event) => {
      const { name, params } = (event as CustomEvent<{ name: string; params: TrackingParams }>).detail;
      void import('./forward-event').then(({ forwardEvent }) => forwardEvent(name, params, { analytics, marketing }));
    };
    window.addEventListener(TRACK_EVENT, forward);
    return () => window.removeEventListener(TRACK_EVENT, forward);
  }, [analytics, marketing]);

  const choose = useCallback((choice: ConsentChoice) => {
    // Only a tag manager already loaded needs telling.
    void toolLoader?.then(({ updateTagManagerConsent }) => updateTagManagerConsent(choice));
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

  const state = useMemo(
    () => ({ consent, toolsConfigured, settingsOpen, choose, openSettings }),
    [consent, toolsConfigured, settingsOpen, choose, openSettings],
  );
  return <ConsentContext.Provider value={state}>{children}</ConsentContext.Provider>;
}

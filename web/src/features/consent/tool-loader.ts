import type { TrackingConfig } from '../../generated/TrackingConfig';
import type { TrackingParams } from '../../lib/tracking';
import type { ConsentChoice } from './consent-storage';

// The analytics and marketing tools, each loaded only when the server has
// its id and the visitor has granted its category (PECR). The CSP forbids
// inline script, so each tool's usual snippet is written out here: a stub
// that queues calls until the tool's own script, added by src, takes over.

/** Error reporting is beside the tools in the config, but it is no tool to consent to. */
type Tool = Exclude<keyof TrackingConfig, 'errorReporting'>;
type ToolIds = Record<Tool, string | null>;
type Category = keyof ConsentChoice;

const CATEGORY: Record<Tool, Category> = {
  tagManager: 'analytics',
  heap: 'analytics',
  clarity: 'analytics',
  metaPixel: 'marketing',
  tiktok: 'marketing',
  klaviyo: 'marketing',
};

const TOOLS = Object.keys(CATEGORY) as Tool[];

type Queue = unknown[] & Record<string, unknown>;

interface Heap extends Array<unknown> {
  [method: string]: unknown;
  track(event: string, properties: TrackingParams): void;
  identify(identity: string): void;
}

interface MetaPixel {
  (...args: unknown[]): void;
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[];
  push: MetaPixel;
  loaded: boolean;
  version: string;
}

type Clarity = ((...args: unknown[]) => void) & { q?: unknown[] };

interface TikTok extends Array<unknown> {
  [key: string]: unknown;
  load(id: string): void;
  page(): void;
  track(event: string, properties: TrackingParams): void;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
    heap?: Heap;
    clarity?: Clarity;
    fbq?: MetaPixel;
    _fbq?: MetaPixel;
    ttq?: TikTok;
    TiktokAnalyticsObject?: string;
    klaviyo?: { push(...commands: unknown[]): void };
    _klOnsite?: unknown[];
  }
}

const NO_TOOLS: ToolIds = { tagManager: null, heap: null, clarity: null, metaPixel: null, tiktok: null, klaviyo: null };

/** The configured tools' ids the server put in the page; none when it is missing or unreadable. */
export function readTrackingConfig(): ToolIds {
  const text = document.getElementById('__ENROL_TRACKING__')?.textContent;
  if (!text) return NO_TOOLS;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const id = (tool: Tool) => {
      const value = parsed[tool];
      return typeof value === 'string' && value !== '' ? value : null;
    };
    return Object.fromEntries(TOOLS.map((tool) => [tool, id(tool)])) as ToolIds;
  } catch (error) {
    console.warn('Ignoring unreadable tracking configuration', error);
    return NO_TOOLS;
  }
}

function isLoaded(tool: Tool): boolean {
  return document.head.querySelector(`script[data-tool="${tool}"]`) !== null;
}

function appendScript(tool: Tool, src: string): void {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  script.dataset.tool = tool;
  document.head.append(script);
}

/** A stub method that queues `[method, ...args]` for the tool's script to replay. */
function deferTo(queue: unknown[], method: string) {
  return (...args: unknown[]) => {
    queue.push([method, ...args]);
  };
}

// Google's consent mode: tags inside the container (Ads conversions among
// them) keep to the visitor's marketing choice too.
function gtag(..._command: unknown[]): void {
  // The tag manager reads commands only as `arguments` objects.
  // eslint-disable-next-line prefer-rest-params -- an array is ignored by the tag manager
  window.dataLayer?.push(arguments);
}

function googleConsent(grants: ConsentChoice) {
  const marketing = grants.marketing ? 'granted' : 'denied';
  return { analytics_storage: grants.analytics ? 'granted' : 'denied', ad_storage: marketing, ad_user_data: marketing, ad_personalization: marketing };
}

const HEAP_METHODS = ['addEventProperties', 'addUserProperties', 'clearEventProperties', 'identify', 'resetIdentity', 'removeEventProperty', 'setEventProperties', 'track', 'unsetEventProperty'];

const TIKTOK_METHODS = ['page', 'track', 'identify', 'instances', 'debug', 'on', 'off', 'once', 'ready', 'alias', 'group', 'enableCookie', 'disableCookie', 'holdConsent', 'revokeConsent', 'grantConsent'];
const TIKTOK_SCRIPT = 'https://analytics.tiktok.com/i18n/pixel/events.js';

function tiktokStub(): TikTok {
  const ttq = [] as unknown as TikTok;
  const setAndDefer = (target: Queue, method: string) => {
    target[method] = deferTo(target, method);
  };
  const instances: Record<string, Queue> = {};
  const loadedAt: Record<string, number> = {};
  const options: Record<string, unknown> = {};
  for (const method of TIKTOK_METHODS) setAndDefer(ttq, method);
  Object.assign(ttq, {
    methods: TIKTOK_METHODS,
    setAndDefer,
    _i: instances,
    _t: loadedAt,
    _o: options,
    instance(id: string) {
      const instance = instances[id] ?? ([] as unknown as Queue);
      for (const method of TIKTOK_METHODS) setAndDefer(instance, method);
      return instance;
    },
    load(id: string) {
      instances[id] = Object.assign([], { _u: TIKTOK_SCRIPT }) as unknown as Queue;
      loadedAt[id] = Date.now();
      options[id] = {};
      appendScript('tiktok', `${TIKTOK_SCRIPT}?sdkid=${encodeURIComponent(id)}&lib=ttq`);
    },
  });
  return ttq;
}

function metaPixelStub(): MetaPixel {
  const fbq = ((...args: unknown[]) => {
    if (fbq.callMethod) fbq.callMethod(...args);
    else fbq.queue.push(args);
  }) as MetaPixel;
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  fbq.queue = [];
  return fbq;
}

const LOADERS: Record<Tool, (id: string, grants: ConsentChoice) => void> = {
  tagManager(id, grants) {
    window.dataLayer ??= [];
    gtag('consent', 'default', googleConsent(grants));
    window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    appendScript('tagManager', `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`);
  },
  heap(id) {
    if (!window.heap) {
      const heap = [] as unknown as Heap;
      heap.appid = id;
      heap.config = {};
      for (const method of HEAP_METHODS) heap[method] = deferTo(heap, method);
      window.heap = heap;
    }
    appendScript('heap', `https://cdn.heapanalytics.com/js/heap-${encodeURIComponent(id)}.js`);
  },
  clarity(id) {
    const clarity: Clarity = (...args: unknown[]) => {
      (clarity.q ??= []).push(args);
    };
    window.clarity ??= clarity;
    appendScript('clarity', `https://www.clarity.ms/tag/${encodeURIComponent(id)}`);
  },
  metaPixel(id) {
    const fbq = (window.fbq ??= metaPixelStub());
    window._fbq ??= fbq;
    appendScript('metaPixel', 'https://connect.facebook.net/en_US/fbevents.js');
    fbq('init', id);
    fbq('track', 'PageView');
  },
  tiktok(id) {
    window.TiktokAnalyticsObject = 'ttq';
    const ttq = (window.ttq ??= tiktokStub());
    ttq.load(id);
    ttq.page();
  },
  klaviyo(id) {
    const onsite = (window._klOnsite ??= []);
    window.klaviyo ??= { push: (...commands: unknown[]) => onsite.push(...commands) };
    appendScript('klaviyo', `https://static.klaviyo.com/onsite/js/klaviyo.js?company_id=${encodeURIComponent(id)}`);
  },
};

/**
 * Adds each configured tool whose category is granted, once per page; a
 * tool that fails to start is logged and skipped.
 */
export function loadTools(config: ToolIds, grants: ConsentChoice): void {
  for (const tool of TOOLS) {
    const id = config[tool];
    if (id === null || !grants[CATEGORY[tool]] || isLoaded(tool)) continue;
    try {
      LOADERS[tool](id, grants);
    } catch (error) {
      console.warn(`Could not load ${tool}`, error);
    }
  }
}

/** Tells a tag manager already on the page that the visitor changed their choice. */
export function updateTagManagerConsent(grants: ConsentChoice): void {
  if (!isLoaded('tagManager')) return;
  try {
    gtag('consent', 'update', googleConsent(grants));
  } catch (error) {
    console.warn('Could not update the tag manager consent', error);
  }
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_TOOLS, embedTrackingConfig, headScriptSrcs, removeTools } from '../../test/tracking-tools';
import { loadTools, readTrackingConfig, updateTagManagerConsent } from './tool-loader';

const NONE = { tagManager: null, heap: null, clarity: null, metaPixel: null, tiktok: null, klaviyo: null };

const SCRIPTS = {
  tagManager: 'https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD',
  heap: 'https://cdn.heapanalytics.com/js/heap-1234567890.js',
  clarity: 'https://www.clarity.ms/tag/clar1ty',
  metaPixel: 'https://connect.facebook.net/en_US/fbevents.js',
  tiktok: 'https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=TT_PIXEL-1&lib=ttq',
  klaviyo: 'https://static.klaviyo.com/onsite/js/klaviyo.js?company_id=KlAv1',
};

/** The arguments of each gtag command in the dataLayer. */
function gtagCommands(): unknown[][] {
  return (window.dataLayer ?? []).filter((entry) => !Array.isArray(entry) && typeof entry === 'object' && entry !== null && 'length' in entry).map((entry) => Array.from(entry as ArrayLike<unknown>));
}

afterEach(removeTools);

describe('readTrackingConfig', () => {
  it('reads the ids the server put in the page', () => {
    embedTrackingConfig({ heap: '42', clarity: 'abc' });
    expect(readTrackingConfig()).toEqual({ ...NONE, heap: '42', clarity: 'abc' });
  });

  it('has no tools when the page carries none or an unreadable list', () => {
    expect(readTrackingConfig()).toEqual(NONE);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    embedTrackingConfig({});
    document.getElementById('__ENROL_TRACKING__')!.textContent = '{broken';
    expect(readTrackingConfig()).toEqual(NONE);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('ignores ids that are not text', () => {
    embedTrackingConfig({});
    document.getElementById('__ENROL_TRACKING__')!.textContent = JSON.stringify({ heap: 42, clarity: '' });
    expect(readTrackingConfig()).toEqual(NONE);
  });
});

describe('loadTools', () => {
  it('loads nothing without consent', () => {
    loadTools(ALL_TOOLS, { analytics: false, marketing: false });
    expect(headScriptSrcs()).toEqual([]);
    expect(window.dataLayer).toBeUndefined();
    expect(window.fbq).toBeUndefined();
  });

  it('loads only the analytics tools when only analytics is granted', () => {
    loadTools(ALL_TOOLS, { analytics: true, marketing: false });
    expect(headScriptSrcs()).toEqual([SCRIPTS.tagManager, SCRIPTS.heap, SCRIPTS.clarity]);
    expect(window.fbq).toBeUndefined();
    expect(window.ttq).toBeUndefined();
    expect(window.klaviyo).toBeUndefined();
  });

  it('loads only the marketing tools when only marketing is granted', () => {
    loadTools(ALL_TOOLS, { analytics: false, marketing: true });
    expect(headScriptSrcs()).toEqual([SCRIPTS.metaPixel, SCRIPTS.tiktok, SCRIPTS.klaviyo]);
    expect(window.dataLayer).toBeUndefined();
  });

  it('loads only the configured tools, each once', () => {
    const config = { ...NONE, heap: ALL_TOOLS.heap, metaPixel: ALL_TOOLS.metaPixel };
    loadTools(config, { analytics: true, marketing: true });
    loadTools(config, { analytics: true, marketing: true });
    expect(headScriptSrcs()).toEqual([SCRIPTS.heap, SCRIPTS.metaPixel]);
    expect(Array.from(document.head.querySelectorAll('script'), (script) => script.async)).toEqual([true, true]);
  });

  it('encodes the ids it puts in addresses', () => {
    loadTools({ ...NONE, clarity: 'a/b?c' }, { analytics: true, marketing: false });
    expect(headScriptSrcs()).toEqual(['https://www.clarity.ms/tag/a%2Fb%3Fc']);
  });

  it('starts the tag manager with Google consent mode set from the choice', () => {
    loadTools({ ...NONE, tagManager: ALL_TOOLS.tagManager }, { analytics: true, marketing: false });
    expect(gtagCommands()).toEqual([
      ['consent', 'default', { analytics_storage: 'granted', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' }],
    ]);
    expect(window.dataLayer).toContainEqual({ 'gtm.start': expect.any(Number) as unknown, event: 'gtm.js' });
    updateTagManagerConsent({ analytics: false, marketing: false });
    expect(gtagCommands()[1]).toEqual(['consent', 'update', { analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' }]);
  });

  it('does not create a dataLayer to update when there is no tag manager', () => {
    updateTagManagerConsent({ analytics: true, marketing: true });
    expect(window.dataLayer).toBeUndefined();
  });

  it('queues the pixels’ first calls until their scripts arrive', () => {
    loadTools(ALL_TOOLS, { analytics: true, marketing: true });
    expect(window.fbq!.queue).toEqual([['init', '987654321'], ['track', 'PageView']]);
    expect(window._fbq).toBe(window.fbq);
    expect(Array.from(window.ttq!)).toEqual([['page']]);
    window.heap!.track('Added Course', { value: 1 });
    expect(Array.from(window.heap!)).toEqual([['track', 'Added Course', { value: 1 }]]);
    expect(window.heap!.appid).toBe('1234567890');
    window.clarity!('set', 'page', 'home');
    expect(window.clarity!.q).toEqual([['set', 'page', 'home']]);
    window.klaviyo!.push(['track', 'Added Course', {}]);
    expect(window._klOnsite).toEqual([['track', 'Added Course', {}]]);
  });

  it('logs and skips a tool that fails to start', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    Object.defineProperty(window, 'fbq', { configurable: true, get: () => { throw new Error('blocked'); } });
    loadTools(ALL_TOOLS, { analytics: false, marketing: true });
    expect(warn).toHaveBeenCalledWith('Could not load metaPixel', expect.any(Error));
    expect(headScriptSrcs()).toEqual([SCRIPTS.tiktok, SCRIPTS.klaviyo]);
  });
});

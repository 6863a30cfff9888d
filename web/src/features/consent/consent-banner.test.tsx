import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SiteFooter } from '../../app/shell/site-footer';
import { readSourceParams, SOURCE_PARAMS_KEY } from '../../lib/source-params';
import { track } from '../../lib/tracking';
import { site } from '../../test/fixtures';
import { ALL_TOOLS, embedTrackingConfig, headScriptSrcs, removeTools } from '../../test/tracking-tools';
import { ConsentBanner } from './consent-banner';
import { ConsentProvider } from './consent-context';
import { CONSENT_KEY } from './consent-storage';

function page() {
  return (
    <ConsentProvider>
      <SiteFooter site={site} year={2031} />
      <ConsentBanner />
    </ConsentProvider>
  );
}

/**
 * Lets the tools' code, which loads only once a category is granted, run:
 * after this, whatever it would have done is done.
 */
async function toolsSettled() {
  await import('./tool-loader');
  await import('./forward-event');
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

function stored(): unknown {
  return JSON.parse(localStorage.getItem(CONSENT_KEY) ?? 'null');
}

function decided(analytics: boolean, marketing: boolean) {
  localStorage.setItem(CONSENT_KEY, JSON.stringify({ version: 1, analytics, marketing, decidedAt: '2031-03-04T10:00:00.000Z' }));
}

const banner = () => screen.queryByRole('region', { name: 'Cookies on this site' });

beforeEach(() => embedTrackingConfig({ metaPixel: '987654321' }));

afterEach(() => {
  removeTools();
  window.history.replaceState(null, '', '/');
});

describe('ConsentBanner', () => {
  it('asks nothing when the college configured no tool', () => {
    removeTools();
    embedTrackingConfig({});
    render(page());
    expect(banner()).toBeNull();
  });

  it('is never part of the server HTML', () => {
    expect(renderToString(page())).not.toContain('Accept all');
  });

  it('asks a visitor who has not chosen, with three equal choices and the privacy policy', () => {
    render(page());
    const region = banner()!;
    expect(within(region).getByRole('link', { name: 'Read our privacy policy' }).getAttribute('href')).toBe('/privacy-policy/');
    const buttons = within(region).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['Accept all', 'Reject all', 'Manage choices']);
    expect(new Set(buttons.map((button) => button.className))).toEqual(new Set(['button']));
  });

  it('stays away once the visitor has chosen', () => {
    decided(false, false);
    render(page());
    expect(banner()).toBeNull();
  });

  it('asks again when the stored choice is unreadable', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem(CONSENT_KEY, '{"version":1,"analytics":"yes"');
    render(page());
    expect(banner()).not.toBeNull();
    expect(warn).toHaveBeenCalledOnce();
  });

  it('Accept all grants both and hides the banner', async () => {
    render(page());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept all' }));
    expect(stored()).toEqual({ version: 1, analytics: true, marketing: true, decidedAt: expect.any(String) as unknown });
    expect(banner()).toBeNull();
  });

  it('Reject all refuses both and hides the banner', async () => {
    render(page());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reject all' }));
    expect(stored()).toEqual({ version: 1, analytics: false, marketing: false, decidedAt: expect.any(String) as unknown });
    expect(banner()).toBeNull();
  });

  it('Manage choices starts with both off and saves what is ticked', async () => {
    const user = userEvent.setup();
    render(page());
    await user.click(screen.getByRole('button', { name: 'Manage choices' }));
    const choices = screen.getByRole('region', { name: 'Manage choices' });
    const analytics = within(choices).getByRole('checkbox', { name: 'Analytics' });
    const marketing = within(choices).getByRole('checkbox', { name: 'Marketing' });
    expect(analytics).toHaveProperty('checked', false);
    expect(marketing).toHaveProperty('checked', false);
    expect(document.activeElement).toBe(analytics);
    expect(within(choices).getByText(/not loaded again from your next page load/)).toBeInTheDocument();
    await user.keyboard(' ');
    await user.click(within(choices).getByRole('button', { name: 'Save choices' }));
    expect(stored()).toEqual({ version: 1, analytics: true, marketing: false, decidedAt: expect.any(String) as unknown });
    expect(screen.queryByRole('region', { name: 'Manage choices' })).toBeNull();
  });

  it('Cookie settings in the footer reopens the choices as they were, then returns there', async () => {
    const user = userEvent.setup();
    decided(true, false);
    render(page());
    const settings = within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Cookie settings' });
    await user.click(settings);
    const choices = screen.getByRole('region', { name: 'Manage choices' });
    expect(within(choices).getByRole('checkbox', { name: 'Analytics' })).toHaveProperty('checked', true);
    await user.click(within(choices).getByRole('checkbox', { name: 'Marketing' }));
    await user.click(within(choices).getByRole('button', { name: 'Save choices' }));
    expect(stored()).toEqual({ version: 1, analytics: true, marketing: true, decidedAt: expect.any(String) as unknown });
    expect(screen.queryByRole('region', { name: 'Manage choices' })).toBeNull();
    expect(document.activeElement).toBe(settings);
  });
});

describe('ConsentProvider', () => {
  it('loads no tool and creates no dataLayer before a choice', async () => {
    removeTools();
    embedTrackingConfig(ALL_TOOLS);
    render(page());
    track('add_to_cart', { value: 1 });
    await toolsSettled();
    expect(headScriptSrcs()).toEqual([]);
    expect(window.dataLayer).toBeUndefined();
  });

  it('loads nothing after Reject all', async () => {
    removeTools();
    embedTrackingConfig(ALL_TOOLS);
    render(page());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reject all' }));
    await toolsSettled();
    expect(headScriptSrcs()).toEqual([]);
  });

  it('loads the configured tools of the granted categories as soon as they are granted', async () => {
    removeTools();
    embedTrackingConfig({ tagManager: ALL_TOOLS.tagManager, metaPixel: ALL_TOOLS.metaPixel });
    const user = userEvent.setup();
    render(page());
    await user.click(screen.getByRole('button', { name: 'Manage choices' }));
    await user.click(screen.getByRole('checkbox', { name: 'Analytics' }));
    await user.click(screen.getByRole('button', { name: 'Save choices' }));
    await toolsSettled();
    expect(headScriptSrcs()).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD']);
  });

  it('loads the granted tools straight away on a later visit', async () => {
    removeTools();
    embedTrackingConfig(ALL_TOOLS);
    decided(false, true);
    render(page());
    await toolsSettled();
    expect(headScriptSrcs()).toEqual([
      'https://connect.facebook.net/en_US/fbevents.js',
      'https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=TT_PIXEL-1&lib=ttq',
      'https://static.klaviyo.com/onsite/js/klaviyo.js?company_id=KlAv1',
    ]);
  });

  it('forwards events to the granted tools and stops when consent is withdrawn', async () => {
    removeTools();
    embedTrackingConfig(ALL_TOOLS);
    decided(true, true);
    const user = userEvent.setup();
    render(page());
    track('add_to_cart', { currency: 'GBP', value: 890 });
    track('AddToCart', { currency: 'GBP', value: 890, content_ids: ['c1'], content_name: 'Laser' });
    await toolsSettled();
    expect(window.dataLayer).toContainEqual({ event: 'add_to_cart', currency: 'GBP', value: 890 });
    expect(window.fbq!.queue).toContainEqual(['track', 'AddToCart', { currency: 'GBP', value: 890, content_ids: ['c1'], content_name: 'Laser' }]);

    await user.click(screen.getByRole('button', { name: 'Cookie settings' }));
    await user.click(screen.getByRole('checkbox', { name: 'Analytics' }));
    await user.click(screen.getByRole('checkbox', { name: 'Marketing' }));
    await user.click(screen.getByRole('button', { name: 'Save choices' }));
    const [events, pixel] = [window.dataLayer!.length, window.fbq!.queue.length];
    track('begin_checkout', { currency: 'GBP', value: 19.9 });
    track('AddToCart', { currency: 'GBP', value: 890, content_ids: ['c1'], content_name: 'Laser' });
    await toolsSettled();
    expect(window.dataLayer).toHaveLength(events);
    expect(window.fbq!.queue).toHaveLength(pixel);
  });
});

describe('source params', () => {
  const landing = '/courses/?utm_source=google&utm_campaign=laser&gclid=abc123';

  it('are not stored before a choice, and stored once marketing is granted during the visit', async () => {
    window.history.replaceState(null, '', landing);
    render(page());
    expect(localStorage.getItem(SOURCE_PARAMS_KEY)).toBeNull();
    window.history.replaceState(null, '', '/checkout/');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept all' }));
    expect(readSourceParams()).toEqual({ utm_source: 'google', utm_campaign: 'laser', gclid: 'abc123' });
  });

  it('are stored on landing when marketing was granted before', () => {
    decided(false, true);
    window.history.replaceState(null, '', landing);
    render(page());
    expect(readSourceParams()).toEqual({ utm_source: 'google', utm_campaign: 'laser', gclid: 'abc123' });
  });

  it('are not stored with analytics consent alone', () => {
    decided(true, false);
    window.history.replaceState(null, '', landing);
    render(page());
    expect(localStorage.getItem(SOURCE_PARAMS_KEY)).toBeNull();
  });

  it('are removed when marketing is refused', async () => {
    localStorage.setItem(SOURCE_PARAMS_KEY, JSON.stringify({ utm_source: 'google' }));
    render(page());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reject all' }));
    expect(localStorage.getItem(SOURCE_PARAMS_KEY)).toBeNull();
  });
});

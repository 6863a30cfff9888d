import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { removeTools } from '../../test/tracking-tools';
import { forwardEvent } from './forward-event';

const ADD_TO_CART = { currency: 'GBP', value: 890, content_ids: ['c1'], content_name: 'Microneedling Course', content_type: 'product' };
const ADDED_COURSE = { currency: 'GBP', value: 890, course_id: 'c1', course_name: 'Microneedling Course', url: '/courses/aesthetics/microneedling/' };
const IDENTIFY = { user_id: 'u-1', email: 'amira@example.co.uk' };

const ALL = { analytics: true, marketing: true };

/** Stand-ins for the tools' stubs, recording each call. */
function toolsOnPage() {
  const tools = {
    fbq: vi.fn(),
    ttq: { track: vi.fn() },
    heap: { track: vi.fn(), identify: vi.fn() },
    klaviyo: { push: vi.fn() },
  };
  window.dataLayer = [];
  window.fbq = tools.fbq as unknown as Window['fbq'];
  window.ttq = tools.ttq as unknown as Window['ttq'];
  window.heap = tools.heap as unknown as Window['heap'];
  window.klaviyo = tools.klaviyo;
  return tools;
}

let tools: ReturnType<typeof toolsOnPage>;
beforeEach(() => {
  tools = toolsOnPage();
});
afterEach(removeTools);

describe('forwardEvent', () => {
  it('sends each conversion to the tag manager, Heap and the Meta pixel in its own words', () => {
    forwardEvent('conversion', { conversion_label: 'signup' }, ALL);
    forwardEvent('conversion', { conversion_label: 'enrol', order_id: 'o-1', currency: 'GBP', value: 1030 }, ALL);
    forwardEvent('conversion', { conversion_label: 'callback' }, ALL);
    expect(window.dataLayer).toEqual([
      { event: 'conversion', conversion_label: 'signup' },
      { event: 'conversion', conversion_label: 'enrol', order_id: 'o-1', currency: 'GBP', value: 1030 },
      { event: 'conversion', conversion_label: 'callback' },
    ]);
    expect(tools.heap.track).toHaveBeenCalledWith('conversion', { conversion_label: 'signup' });
    expect(tools.fbq.mock.calls).toEqual([
      ['track', 'CompleteRegistration', { content_name: 'signup' }],
      ['track', 'Purchase', { currency: 'GBP', value: 1030 }],
      ['track', 'Lead', { content_name: 'callback' }],
    ]);
  });

  it('keeps conversions from marketing tools without marketing consent', () => {
    forwardEvent('conversion', { conversion_label: 'contact' }, { analytics: true, marketing: false });
    expect(window.dataLayer).toEqual([{ event: 'conversion', conversion_label: 'contact' }]);
    expect(tools.fbq).not.toHaveBeenCalled();
  });

  it('sends AddToCart to the Meta and TikTok pixels', () => {
    forwardEvent('AddToCart', ADD_TO_CART, ALL);
    expect(tools.fbq).toHaveBeenCalledWith('track', 'AddToCart', ADD_TO_CART);
    expect(tools.ttq.track).toHaveBeenCalledWith('AddToCart', {
      currency: 'GBP', value: 890, content_type: 'product', contents: [{ content_id: 'c1', content_name: 'Microneedling Course' }],
    });
    expect(tools.klaviyo.push).not.toHaveBeenCalled();
    expect(tools.heap.track).not.toHaveBeenCalled();
  });

  it('sends Added Course to Klaviyo and Heap', () => {
    forwardEvent('Added Course', ADDED_COURSE, ALL);
    expect(tools.klaviyo.push).toHaveBeenCalledWith(['track', 'Added Course', ADDED_COURSE]);
    expect(tools.heap.track).toHaveBeenCalledWith('Added Course', ADDED_COURSE);
    expect(tools.fbq).not.toHaveBeenCalled();
  });

  it('puts every event in the dataLayer for the tag manager', () => {
    forwardEvent('add_to_cart', { currency: 'GBP', value: 890 }, ALL);
    forwardEvent('begin_checkout', { currency: 'GBP', value: 19.9 }, ALL);
    expect(window.dataLayer).toEqual([
      { event: 'add_to_cart', currency: 'GBP', value: 890 },
      { event: 'begin_checkout', currency: 'GBP', value: 19.9 },
    ]);
  });

  it('identifies the student to Heap and Klaviyo by email, and to the tag manager without it', () => {
    forwardEvent('identify', IDENTIFY, ALL);
    expect(tools.heap.identify).toHaveBeenCalledWith('amira@example.co.uk');
    expect(tools.klaviyo.push).toHaveBeenCalledWith(['identify', { email: 'amira@example.co.uk' }]);
    expect(window.dataLayer).toEqual([{ event: 'identify', user_id: 'u-1' }]);
  });

  it('sends nothing to analytics tools without analytics consent', () => {
    forwardEvent('Added Course', ADDED_COURSE, { analytics: false, marketing: true });
    forwardEvent('begin_checkout', { value: 1 }, { analytics: false, marketing: true });
    forwardEvent('identify', IDENTIFY, { analytics: false, marketing: true });
    expect(window.dataLayer).toEqual([]);
    expect(tools.heap.track).not.toHaveBeenCalled();
    expect(tools.heap.identify).not.toHaveBeenCalled();
    expect(tools.klaviyo.push).toHaveBeenCalledTimes(2);
  });

  it('sends nothing to marketing tools without marketing consent', () => {
    forwardEvent('AddToCart', ADD_TO_CART, { analytics: true, marketing: false });
    forwardEvent('Added Course', ADDED_COURSE, { analytics: true, marketing: false });
    forwardEvent('identify', IDENTIFY, { analytics: true, marketing: false });
    expect(tools.fbq).not.toHaveBeenCalled();
    expect(tools.ttq.track).not.toHaveBeenCalled();
    expect(tools.klaviyo.push).not.toHaveBeenCalled();
    expect(tools.heap.track).toHaveBeenCalledOnce();
  });

  it('skips tools that are not on the page', () => {
    removeTools();
    expect(() => forwardEvent('AddToCart', ADD_TO_CART, ALL)).not.toThrow();
    expect(() => forwardEvent('identify', IDENTIFY, ALL)).not.toThrow();
    expect(window.dataLayer).toBeUndefined();
  });

  it('logs and swallows a failing tool, and still reaches the others', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    tools.fbq.mockImplementation(() => {
      throw new Error('pixel broke');
    });
    forwardEvent('AddToCart', ADD_TO_CART, ALL);
    expect(warn).toHaveBeenCalledWith('Tracking AddToCart to the Meta pixel failed', expect.any(Error));
    expect(tools.ttq.track).toHaveBeenCalledOnce();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { track, TRACK_EVENT } from './tracking';

describe('track', () => {
  afterEach(() => {
    delete window.dataLayer;
  });

  it('pushes to the dataLayer and dispatches enrol:track', () => {
    window.dataLayer = [];
    const listener = vi.fn();
    window.addEventListener(TRACK_EVENT, listener);
    track('begin_checkout', { currency: 'GBP', value: 19.9 });
    window.removeEventListener(TRACK_EVENT, listener);
    expect(window.dataLayer).toEqual([{ event: 'begin_checkout', currency: 'GBP', value: 19.9 }]);
    expect((listener.mock.calls[0]![0] as CustomEvent).detail).toEqual({ name: 'begin_checkout', params: { currency: 'GBP', value: 19.9 } });
  });

  it('works without a dataLayer on the page', () => {
    expect(() => track('begin_checkout', {})).not.toThrow();
  });

  it('logs and swallows a failing tag manager', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    window.dataLayer = [];
    window.dataLayer.push = () => {
      throw new Error('tag manager broke');
    };
    const listener = vi.fn();
    window.addEventListener(TRACK_EVENT, listener);
    track('begin_checkout', {});
    window.removeEventListener(TRACK_EVENT, listener);
    expect(warn).toHaveBeenCalledWith('Tracking begin_checkout failed', expect.any(Error));
    expect(listener).toHaveBeenCalledOnce();
  });
});

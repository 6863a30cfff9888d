import { describe, expect, it, vi } from 'vitest';
import { track, TRACK_EVENT } from './tracking';

describe('track', () => {
  it('dispatches enrol:track with the name and params', () => {
    const listener = vi.fn();
    window.addEventListener(TRACK_EVENT, listener);
    track('begin_checkout', { currency: 'GBP', value: 19.9 });
    window.removeEventListener(TRACK_EVENT, listener);
    expect((listener.mock.calls[0]![0] as CustomEvent).detail).toEqual({ name: 'begin_checkout', params: { currency: 'GBP', value: 19.9 } });
  });

  it('never creates a dataLayer itself', () => {
    track('begin_checkout', {});
    expect(window.dataLayer).toBeUndefined();
  });

  it('logs and swallows a failure', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(window, 'dispatchEvent').mockImplementation(() => {
      throw new Error('no events here');
    });
    expect(() => track('begin_checkout', {})).not.toThrow();
    expect(warn).toHaveBeenCalledWith('Tracking begin_checkout failed', expect.any(Error));
  });
});

import { describe, expect, it, vi } from 'vitest';
import { clearSourceParams, readSourceParams, saveSourceParams, SOURCE_PARAMS_KEY } from './source-params';

describe('readSourceParams', () => {
  it('is empty when nothing is stored', () => {
    expect(readSourceParams()).toEqual({});
  });

  it('reads the stored landing parameters, keeping only text values', () => {
    localStorage.setItem(SOURCE_PARAMS_KEY, JSON.stringify({ utm_source: 'google', utm_campaign: 'laser', count: 3 }));
    expect(readSourceParams()).toEqual({ utm_source: 'google', utm_campaign: 'laser' });
  });

  it('ignores an unreadable value', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem(SOURCE_PARAMS_KEY, '["utm_source"]');
    expect(readSourceParams()).toEqual({});
    localStorage.setItem(SOURCE_PARAMS_KEY, '{not json');
    expect(readSourceParams()).toEqual({});
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('saveSourceParams', () => {
  it('keeps every query parameter of the landing URL', () => {
    saveSourceParams('?utm_source=google&utm_medium=cpc&gclid=abc123&fbclid=fb1&ttclid=tt1&ref=partner%20site');
    expect(readSourceParams()).toEqual({ utm_source: 'google', utm_medium: 'cpc', gclid: 'abc123', fbclid: 'fb1', ttclid: 'tt1', ref: 'partner site' });
  });

  it('keeps what is stored when the landing URL has no parameters', () => {
    saveSourceParams('?utm_source=google');
    saveSourceParams('');
    expect(readSourceParams()).toEqual({ utm_source: 'google' });
  });

  it('clears them', () => {
    saveSourceParams('?utm_source=google');
    clearSourceParams();
    expect(localStorage.getItem(SOURCE_PARAMS_KEY)).toBeNull();
  });
});

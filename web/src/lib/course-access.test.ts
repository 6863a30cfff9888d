import { describe, expect, it } from 'vitest';
import { accessLine } from './course-access';

describe('accessLine', () => {
  it('names the last day of access, the day it ended or opens, or says it was withdrawn', () => {
    expect(accessLine({ state: 'active', until: '2027-03-10' })).toBe('Access until Wednesday 10 March 2027');
    expect(accessLine({ state: 'expired', ended: '2026-04-30' })).toBe('Access ended on Thursday 30 April 2026');
    expect(accessLine({ state: 'revoked' })).toBe('No longer available');
    expect(accessLine({ state: 'notStarted', opens: '2026-12-01' })).toBe('Opens on Tuesday 1 December 2026');
  });
});

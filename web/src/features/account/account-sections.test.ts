import { describe, expect, it } from 'vitest';
import { sectionOf } from './account-sections';

describe('sectionOf', () => {
  it('finds the part of the account a path shows, with what follows it', () => {
    expect(sectionOf('/account/')).toEqual({ section: '/account/', rest: '' });
    expect(sectionOf('/account/bookings')).toEqual({ section: '/account/bookings/', rest: '' });
    expect(sectionOf('/account/forms/f-1/')).toEqual({ section: '/account/forms/', rest: 'f-1' });
    expect(sectionOf('/account/nothing-here/')).toBeNull();
  });
});

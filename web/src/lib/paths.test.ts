import { describe, expect, it } from 'vitest';
import { nextPathOf, signInPathFor } from './paths';

describe('the sign-in way back', () => {
  it('goes on to a same-site `next` path only, else to the account', () => {
    expect(nextPathOf('?next=/checkout/')).toBe('/checkout/');
    expect(nextPathOf('?next=%2Faccount%2Fbookings%2F%3Fyear%3D2026')).toBe('/account/bookings/?year=2026');
    expect(nextPathOf('')).toBe('/account/');
    expect(nextPathOf('?next=//evil.example/')).toBe('/account/');
    expect(nextPathOf('?next=/%5Cevil.example/')).toBe('/account/');
    expect(nextPathOf('?next=https://evil.example/')).toBe('/account/');
    expect(nextPathOf('?next=account/')).toBe('/account/');
  });

  it('links to the sign-in page with the way back', () => {
    expect(signInPathFor('/account/')).toBe('/sign-in/?next=/account/');
    expect(signInPathFor('/account/a&b/')).toBe('/sign-in/?next=/account/a%26b/');
  });
});

import { describe, expect, it } from 'vitest';
import { authenticatorCode, optionalWholeNumber, penceFromPounds, pounds, poundsFromPence, wholeNumber } from './form-rules';

describe('amounts typed in pounds', () => {
  it.each([
    ['50', 5000],
    ['49.5', 4950],
    ['49.50', 4950],
    ['£1,234.56', 123456],
    [' 0.01 ', 1],
    ['0', 0],
  ])('reads %j as %i pence', (typed, pence) => {
    expect(penceFromPounds(typed)).toBe(pence);
  });

  it.each(['', '12.345', '1,23', '-5', 'ten', '£', '1.2.3', '12,3456'])('refuses %j', (typed) => {
    expect(penceFromPounds(typed)).toBeNull();
  });

  it('writes pence back as pounds for a field to edit', () => {
    expect(poundsFromPence(123456)).toBe('1234.56');
    expect(poundsFromPence(5)).toBe('0.05');
    expect(poundsFromPence(45000)).toBe('450.00');
  });

  it('says one thing at a time: missing, not an amount, too small', () => {
    const refund = pounds('Enter the amount', 1);
    expect(refund.safeParse('').error?.issues.map((issue) => issue.message)).toEqual(['Enter the amount']);
    expect(refund.safeParse('abc').error?.issues.map((issue) => issue.message)).toEqual(['Enter an amount in pounds, like 49.50']);
    expect(refund.safeParse('0').error?.issues.map((issue) => issue.message)).toEqual(['Enter at least £0.01']);
    expect(refund.parse('12.50')).toBe(1250);
  });
});

describe('numbers and codes', () => {
  it('takes whole numbers from a minimum, and a blank as no limit', () => {
    expect(wholeNumber('Enter the seats', 1).parse('16')).toBe(16);
    expect(wholeNumber('Enter the seats', 1).safeParse('0').success).toBe(false);
    expect(wholeNumber('Enter the seats', 1).safeParse('1.5').error?.issues[0]?.message).toBe('Enter a whole number');
    expect(optionalWholeNumber(1).parse('')).toBeNull();
    expect(optionalWholeNumber(1).parse('20')).toBe(20);
  });

  it('takes six digits, with spaces as typed from the app', () => {
    expect(authenticatorCode().parse('123 456')).toBe('123456');
    expect(authenticatorCode().safeParse('12345').error?.issues[0]?.message).toBe('Enter the 6-digit code from your authenticator app');
  });
});

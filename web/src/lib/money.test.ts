import { describe, expect, it } from 'vitest';
import { formatMoney, formatPounds } from './money';

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const wholeGbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });

describe('formatMoney', () => {
  it.each([0, 1, 99, 100, 1999, 10000, 125000, 3999, 39999, 100000, 123456789, -500, -125050])(
    'formats %i pence as Intl does',
    (pence) => {
      expect(formatMoney(pence)).toBe(gbp.format(pence / 100));
    },
  );

  it('shows the spec example', () => {
    expect(formatMoney(125000)).toBe('£1,250.00');
  });
});

describe('formatPounds', () => {
  it.each([0, 45, 250, 1200, 15000])('formats £%i as Intl does', (pounds) => {
    expect(formatPounds(pounds)).toBe(wholeGbp.format(pounds));
  });
});

import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDistance, formatLongDate, formatMonth, formatSessionDate, formatShortDate, formatTime, monthOf, ordinal, yearOf } from './dates';

const long = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const longWithYear = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const monthYear = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const short = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayMonthYearTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC',
});

const withoutOrdinal = (text: string) => text.replace(/(\d+)(st|nd|rd|th)\b/, '$1');
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

// Every day of two years, covering leap days and each weekday and month.
const days = Array.from({ length: 731 }, (_, i) => iso(Date.UTC(2026, 0, 1 + i, 9, 30)));

describe('formatSessionDate (EEEE do MMMM)', () => {
  it('matches Intl for every day of two years, with an ordinal day', () => {
    for (const day of days) {
      expect(withoutOrdinal(formatSessionDate(day))).toBe(long.format(new Date(`${day}Z`)));
    }
  });

  it('reads like the spec', () => {
    expect(formatSessionDate('2026-12-15')).toBe('Tuesday 15th December');
    expect(formatSessionDate('2027-01-01T10:00:00')).toBe('Friday 1st January');
  });
});

describe('formatLongDate (EEEE d MMMM yyyy)', () => {
  it('matches Intl for every day of two years', () => {
    for (const day of days) {
      expect(formatLongDate(day)).toBe(longWithYear.format(new Date(`${day}Z`)).replace(',', ''));
    }
  });

  it('reads as the certificate does', () => {
    expect(formatLongDate('2026-05-08')).toBe('Friday 8 May 2026');
  });
});

describe('ordinal', () => {
  it.each([[1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [11, '11th'], [12, '12th'], [13, '13th'], [21, '21st'], [22, '22nd'], [23, '23rd'], [31, '31st']])(
    '%i is %s',
    (day, text) => expect(ordinal(day)).toBe(text),
  );
});

describe('month, short date and time', () => {
  it('match Intl', () => {
    for (const day of days.filter((_, i) => i % 7 === 0)) {
      const date = new Date(`${day}Z`);
      expect(formatMonth(day.slice(0, 7))).toBe(monthYear.format(date));
      expect(formatShortDate(day)).toBe(short.format(date).replace('Sept', 'Sep'));
      expect(formatTime(day)).toBe('09:30');
    }
  });
});

describe('formatDateTime', () => {
  it('says Yesterday at HH:mm for yesterday, across a month end', () => {
    expect(formatDateTime('2026-11-30T18:05:00', '2026-12-01T09:00:00')).toBe('Yesterday at 18:05');
  });

  it("otherwise shows 'do MMMM yyyy HH:mm' like Intl", () => {
    const value = '2026-11-20T08:07:00';
    expect(formatDateTime(value, '2026-12-01T09:00:00')).toBe('20th November 2026 08:07');
    expect(withoutOrdinal(formatDateTime(value, '2026-12-01T09:00:00'))).toBe(
      dayMonthYearTime.format(new Date(`${value}Z`)).replace(' at ', ' ').replace(',', ''),
    );
    expect(formatDateTime('2026-12-01T07:00:00', '2026-12-01T09:00:00')).toBe('1st December 2026 07:00');
  });
});

describe('formatDistance', () => {
  const from = '2026-01-01T00:00:00';
  const after = (seconds: number) => iso(Date.UTC(2026, 0, 1) + seconds * 1000);
  it.each([
    [30, 'less than a minute'],
    [60, '1 minute'],
    [5 * 60, '5 minutes'],
    [50 * 60, 'about 1 hour'],
    [3 * 3600, 'about 3 hours'],
    [30 * 3600, '1 day'],
    [4 * 86400, '4 days'],
    [32 * 86400, 'about 1 month'],
    [100 * 86400, '3 months'],
    [400 * 86400, 'about 1 year'],
    [500 * 86400, 'over 1 year'],
    [700 * 86400, 'almost 2 years'],
    [1100 * 86400, 'about 3 years'],
  ])('%i seconds is %s', (seconds, text) => {
    expect(formatDistance(from, after(seconds))).toBe(text);
  });

  it('uses the same units as Intl.RelativeTimeFormat', () => {
    const rtf = new Intl.RelativeTimeFormat('en-GB', { numeric: 'always' });
    expect(rtf.format(5, 'minute')).toContain(formatDistance(from, after(300)));
    expect(rtf.format(4, 'day')).toContain(formatDistance(from, after(4 * 86400)));
    expect(rtf.format(3, 'month')).toContain(formatDistance(from, after(100 * 86400)));
  });
});

describe('yearOf', () => {
  it('reads the year of the server clock', () => {
    expect(yearOf('2026-11-22T10:00:00')).toBe(2026);
  });
});

describe('monthOf', () => {
  it('gives the first and last days of a month some months from a day, across years and leap Februaries', () => {
    expect(monthOf('2026-12-10', 0)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(monthOf('2026-12-31', 1)).toEqual({ from: '2027-01-01', to: '2027-01-31' });
    expect(monthOf('2028-03-31', -1)).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthOf('2027-01-15', -2)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
  });
});

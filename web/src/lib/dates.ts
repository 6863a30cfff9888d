// Dates and times as the college shows them. Values arrive as London wall
// clock strings (`2026-12-15`, `2026-12-15T10:00:00`) and `now` comes from the
// server, so rendering never depends on the machine's clock or time zone.
// QuickJS has no Intl; these helpers are tested against it.

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function parseWallClock(value: string): WallClock {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!m) throw new Error(`Not a date: ${value}`);
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  };
}

function epochMs(t: WallClock): number {
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

export function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  switch (day % 10) {
    case 1:
      return `${day}st`;
    case 2:
      return `${day}nd`;
    case 3:
      return `${day}rd`;
    default:
      return `${day}th`;
  }
}

const two = (n: number) => String(n).padStart(2, '0');

/** 'EEEE do MMMM': Tuesday 15th December. */
export function formatSessionDate(value: string): string {
  const t = parseWallClock(value);
  const weekday = WEEKDAYS[new Date(epochMs(t)).getUTCDay()];
  return `${weekday} ${ordinal(t.day)} ${MONTHS[t.month - 1]}`;
}

/** 'EEEE d MMMM yyyy': Friday 8 May 2026, where the year matters (a certificate's date). */
export function formatLongDate(value: string): string {
  const t = parseWallClock(value);
  const weekday = WEEKDAYS[new Date(epochMs(t)).getUTCDay()];
  return `${weekday} ${t.day} ${MONTHS[t.month - 1]} ${t.year}`;
}

/** 15 Dec 2026, for compact listings. */
export function formatShortDate(value: string): string {
  const t = parseWallClock(value);
  return `${t.day} ${MONTHS[t.month - 1]!.slice(0, 3)} ${t.year}`;
}

/** `2026-12` as December 2026. */
export function formatMonth(value: string): string {
  const [year, month] = value.split('-');
  return `${MONTHS[Number(month) - 1]} ${year}`;
}

/** HH:mm of a wall-clock date-time. */
export function formatTime(value: string): string {
  const t = parseWallClock(value);
  return `${two(t.hour)}:${two(t.minute)}`;
}

/** 'Yesterday at HH:mm', otherwise 'do MMMM yyyy HH:mm'. */
export function formatDateTime(value: string, now: string): string {
  const t = parseWallClock(value);
  const n = parseWallClock(now);
  const yesterday = new Date(Date.UTC(n.year, n.month - 1, n.day - 1));
  if (
    yesterday.getUTCFullYear() === t.year &&
    yesterday.getUTCMonth() === t.month - 1 &&
    yesterday.getUTCDate() === t.day
  ) {
    return `Yesterday at ${two(t.hour)}:${two(t.minute)}`;
  }
  return `${ordinal(t.day)} ${MONTHS[t.month - 1]} ${t.year} ${two(t.hour)}:${two(t.minute)}`;
}

/** The time between two moments in words: 'less than a minute', '5 minutes',
 * 'about 2 hours', '3 days', 'about 1 month', '4 months', 'about 1 year',
 * 'over 1 year', 'almost 2 years'. */
export function formatDistance(from: string, to: string): string {
  const seconds = Math.abs(epochMs(parseWallClock(to)) - epochMs(parseWallClock(from))) / 1000;
  const minutes = Math.round(seconds / 60);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return 'less than a minute';
  if (minutes < 45) return plural(minutes, 'minute');
  if (minutes < 90) return 'about 1 hour';
  if (minutes < 1440) return `about ${plural(Math.round(minutes / 60), 'hour')}`;
  if (minutes < 2520) return '1 day';
  if (minutes < 43200) return plural(Math.round(minutes / 1440), 'day');
  if (minutes < 86400) return `about ${plural(Math.round(minutes / 43200), 'month')}`;
  const months = Math.round(minutes / 43200);
  if (months < 12) return plural(months, 'month');
  const years = Math.floor(months / 12);
  const remainder = months % 12;
  if (remainder < 3) return `about ${plural(years, 'year')}`;
  if (remainder < 9) return `over ${plural(years, 'year')}`;
  return `almost ${plural(years + 1, 'year')}`;
}

/** The year of the server's `now`, for the copyright line. */
export function yearOf(now: string): number {
  return parseWallClock(now).year;
}

/** The first and last days of the month `steps` months from the one of `day` (`YYYY-MM-DD`). */
export function monthOf(day: string, steps: number): { from: string; to: string } {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 1 + steps, 1));
  const last = new Date(Date.UTC(year, month + steps, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

import { ValidationError } from './errors';

// The wire format for times is "YYYY-MM-DD HH:MM:SS" in UTC (as in the seeds); ISO 8601 is also
// accepted, but only with an explicit offset, so no input is read in some server's local zone.
// Read by hand rather than by a date library: every call record's start passes through here, and a
// library's general ISO reader costs more than the rest of the record's checks together.

const CLOCK = '([01]\\d|2[0-3]):([0-5]\\d)';
const DATE = '(\\d{4})-(\\d{2})-(\\d{2})';
const UTC_TIMESTAMP_PATTERN = new RegExp(`^${DATE} ${CLOCK}:([0-5]\\d)$`);
// An offset as ±HH:MM or ±HHMM; its size is not checked (+99:99 is 99 hours and 99 minutes).
const ISO_WITH_OFFSET_PATTERN = new RegExp(
  `^${DATE}T${CLOCK}(?::([0-5]\\d)(?:\\.(\\d{1,9}))?)?(?:(Z)|([+-])(\\d{2}):?(\\d{2}))$`,
);

/**
 * Years a date or time of ours may have: PostgreSQL has no year 0 (`0000-01-01` is out of its
 * range), and nothing Trackline records or filters lies outside these.
 */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;

export const YEAR_RULE = `must have a year from ${MIN_YEAR} to ${MAX_YEAR}`;

/** True when a `YYYY-…` text's year is within MIN_YEAR..MAX_YEAR. */
export function hasSupportedYear(text: string): boolean {
  const year = Number(text.slice(0, 4));
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

export function formatUtcTimestamp(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid date');
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

export function parseCallTime(field: string, value: unknown): Date {
  if (typeof value === 'string') {
    const instant = readUtcTimestamp(value) ?? readIsoWithOffset(value);
    if (instant !== null) {
      // Checked before the value is used: Date.UTC reads the years 0–99 as 1900–1999.
      if (!hasSupportedYear(value)) throw new ValidationError(field, YEAR_RULE);
      return new Date(instant);
    }
  }
  throw new ValidationError(field, 'must be "YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset');
}

/** Epoch ms of "YYYY-MM-DD HH:MM:SS" in UTC; null when the text is no valid time of that form. */
function readUtcTimestamp(value: string): number | null {
  const match = UTC_TIMESTAMP_PATTERN.exec(value);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  if (!isCalendarDate(year!, month!, day!)) return null;
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
}

/** Epoch ms of an ISO 8601 time with an offset; null when the text is no valid time of that form. */
function readIsoWithOffset(value: string): number | null {
  const match = ISO_WITH_OFFSET_PATTERN.exec(value);
  if (match === null) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as number[];
  if (!isCalendarDate(year!, month!, day!)) return null;
  const second = match[6] === undefined ? 0 : Number(match[6]);
  // The fraction × 1000, cut off rather than rounded, as luxon reads it (the property test in
  // timestamps.test.ts holds the two together).
  const millis = match[7] === undefined ? 0 : Math.floor(parseFloat(`0.${match[7]}`) * 1000);
  const sign = match[9] === '-' ? -1 : 1;
  const offsetMinutes = match[8] === 'Z' ? 0 : sign * (Number(match[10]) * 60 + Number(match[11]));
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second, millis) - offsetMinutes * 60_000;
}

/** Month 1–12 and a day that month has, in the proleptic Gregorian calendar. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

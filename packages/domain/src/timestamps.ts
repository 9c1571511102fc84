import { DateTime } from 'luxon';
import { ValidationError } from './errors';

// The wire format for times is "YYYY-MM-DD HH:MM:SS" in UTC (as in the seeds); ISO 8601 is also
// accepted, but only with an explicit offset, so no input is read in some server's local zone.

// Hours stop at 23 here because luxon would otherwise read 24:00:00 as the next midnight.
const CLOCK = '([01]\\d|2[0-3]):[0-5]\\d';
const UTC_TIMESTAMP_PATTERN = new RegExp(`^\\d{4}-\\d{2}-\\d{2} ${CLOCK}:[0-5]\\d$`);
const ISO_WITH_OFFSET_PATTERN = new RegExp(
  `^\\d{4}-\\d{2}-\\d{2}T${CLOCK}(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$`,
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
    let parsed: DateTime | null = null;
    if (UTC_TIMESTAMP_PATTERN.test(value))
      parsed = DateTime.fromFormat(value, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' });
    else if (ISO_WITH_OFFSET_PATTERN.test(value)) parsed = DateTime.fromISO(value, { setZone: true });
    if (parsed !== null && parsed.isValid) {
      if (!hasSupportedYear(value)) throw new ValidationError(field, YEAR_RULE);
      return parsed.toJSDate();
    }
  }
  throw new ValidationError(field, 'must be "YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset');
}

import { DateTime, IANAZone } from 'luxon';
import { ValidationError } from './errors';
import { hasSupportedYear, isCalendarDate, YEAR_RULE } from './timestamps';
import { zoneOffsetMs } from './zone-offsets';

// Windows are wall-clock rules ("weekdays 08:00–16:00 in the partner's zone"), so every check
// converts the instant to local time first. On a spring-forward day the skipped hour never
// matches; on a fall-back day the repeated hour matches twice, as a person reading a clock expects.

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MINUTES_PER_DAY = 1440;

export interface TimeWindow {
  weekdays: Weekday[];
  /** Minutes since local midnight, inclusive. */
  fromMinute: number;
  /** Minutes since local midnight, exclusive; 1440 is the end of the day. */
  toMinute: number;
}

export interface LocalClock {
  weekday: Weekday;
  minuteOfDay: number;
  /** YYYY-MM-DD in the time zone. */
  date: string;
}

const CLOCK_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const LOCAL_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function parseClockTime(field: string, value: unknown, role: 'from' | 'to'): number {
  if (role === 'to' && value === '24:00') return MINUTES_PER_DAY;
  const match = typeof value === 'string' ? CLOCK_PATTERN.exec(value) : null;
  if (match === null) {
    throw new ValidationError(
      field,
      role === 'to' ? 'must be HH:MM from 00:00 to 24:00' : 'must be HH:MM from 00:00 to 23:59',
    );
  }
  return Number(match[1]) * 60 + Number(match[2]);
}

export function formatClockTime(minutes: number): string {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MINUTES_PER_DAY) {
    throw new RangeError(`not a minute of the day: ${minutes}`);
  }
  const hh = Math.floor(minutes / 60)
    .toString()
    .padStart(2, '0');
  const mm = (minutes % 60).toString().padStart(2, '0');
  return `${hh}:${mm}`;
}

function isWeekday(value: string): value is Weekday {
  return (WEEKDAYS as readonly string[]).includes(value);
}

/** Reads "mon,tue" (spaces after commas allowed); keeps the order sent. */
export function parseWeekdays(field: string, value: unknown): Weekday[] {
  if (typeof value !== 'string')
    throw new ValidationError(field, 'must be a comma-separated list of mon..sun');
  const days: Weekday[] = [];
  for (const part of value.split(',')) {
    const day = part.trim();
    if (!isWeekday(day)) throw new ValidationError(field, 'must be a comma-separated list of mon..sun');
    if (days.includes(day)) throw new ValidationError(field, `must not repeat ${day}`);
    days.push(day);
  }
  return days;
}

export function formatWeekdays(weekdays: readonly Weekday[]): string {
  return weekdays.join(',');
}

export function parseTimeWindow(
  fieldPrefix: string,
  raw: { weekdays: unknown; from_time: unknown; to_time: unknown },
): TimeWindow {
  const weekdays = parseWeekdays(`${fieldPrefix}.weekdays`, raw.weekdays);
  const fromMinute = parseClockTime(`${fieldPrefix}.from_time`, raw.from_time, 'from');
  const toMinute = parseClockTime(`${fieldPrefix}.to_time`, raw.to_time, 'to');
  if (fromMinute >= toMinute) throw new ValidationError(`${fieldPrefix}.to_time`, 'must be after from_time');
  return { weekdays, fromMinute, toMinute };
}

/** Wire form of a window, as alt_numbers and pricing conditions carry it. */
export function renderTimeWindow(window: TimeWindow): {
  weekdays: string;
  from_time: string;
  to_time: string;
} {
  return {
    weekdays: formatWeekdays(window.weekdays),
    from_time: formatClockTime(window.fromMinute),
    to_time: formatClockTime(window.toMinute),
  };
}

export function windowsOverlap(a: TimeWindow, b: TimeWindow): boolean {
  const shareDay = a.weekdays.some((day) => b.weekdays.includes(day));
  return shareDay && a.fromMinute < b.toMinute && b.fromMinute < a.toMinute;
}

/** The first overlapping pair as [earlier index, later index], scanning by the later index. */
export function findOverlap(windows: readonly TimeWindow[]): [number, number] | null {
  for (let later = 1; later < windows.length; later++) {
    for (let earlier = 0; earlier < later; earlier++) {
      if (windowsOverlap(windows[earlier]!, windows[later]!)) return [earlier, later];
    }
  }
  return null;
}

// Luxon checks a zone by building an Intl.DateTimeFormat, which costs more than the rest of a
// commission match; the valid zones are a small fixed set, so each is checked once per process.
const knownValidZones = new Set<string>();

export function isValidTimeZone(tz: string): boolean {
  if (typeof tz !== 'string') return false;
  if (knownValidZones.has(tz)) return true;
  if (!IANAZone.isValidZone(tz)) return false;
  knownValidZones.add(tz);
  return true;
}

export function localClock(instant: Date, timeZone: string): LocalClock {
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError('invalid instant');
  if (!isValidTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${timeZone}`);
  // The local wall clock as the fields of a UTC date shifted by the zone's offset.
  const local = new Date(ms + zoneOffsetMs(ms, timeZone));
  const year = local.getUTCFullYear();
  // Years of five digits or before year 0 take ISO's expanded form; luxon writes those.
  if (year < 0 || year > 9999) return luxonClock(instant, timeZone);
  return {
    weekday: WEEKDAYS[(local.getUTCDay() + 6) % 7]!,
    minuteOfDay: local.getUTCHours() * 60 + local.getUTCMinutes(),
    date: local.toISOString().slice(0, 10),
  };
}

function luxonClock(instant: Date, timeZone: string): LocalClock {
  const local = DateTime.fromJSDate(instant, { zone: timeZone });
  return {
    weekday: WEEKDAYS[local.weekday - 1]!,
    minuteOfDay: local.hour * 60 + local.minute,
    date: local.toISODate()!,
  };
}

export function isInWindow(window: TimeWindow, instant: Date, timeZone: string): boolean {
  const clock = localClock(instant, timeZone);
  return (
    window.weekdays.includes(clock.weekday) &&
    clock.minuteOfDay >= window.fromMinute &&
    clock.minuteOfDay < window.toMinute
  );
}

/** Reads a calendar date such as a CDR filter's from_date; rejects 2026-02-30. */
export function parseLocalDate(field: string, value: unknown): string {
  if (
    typeof value !== 'string' ||
    !LOCAL_DATE_PATTERN.test(value) ||
    !isCalendarDate(Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10)))
  ) {
    throw new ValidationError(field, 'must be a date YYYY-MM-DD');
  }
  if (!hasSupportedYear(value)) {
    throw new ValidationError(field, YEAR_RULE);
  }
  return value;
}

/**
 * The instant the local day begins. Usually local midnight; where a zone skips midnight itself
 * (e.g. America/Santiago in September) it is the first instant that exists on that date.
 */
export function zonedDayStart(date: string, timeZone: string): Date {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${timeZone}`);
  const local = LOCAL_DATE_PATTERN.test(date) ? DateTime.fromISO(date, { zone: timeZone }) : null;
  if (local === null || !local.isValid) throw new RangeError(`not a date YYYY-MM-DD: ${date}`);
  return local.startOf('day').toJSDate();
}

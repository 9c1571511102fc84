import { DateTime } from 'luxon';
import { ValidationError } from './errors';
import { isValidTimeZone } from './time-window';

// A report month is a calendar month on the partner's wall clock: it starts at local midnight of
// the 1st and ends at local midnight of the next 1st, so a month with a daylight-saving change is
// an hour shorter or longer than its days × 24 h, and each of its days is a local day.

const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** `YYYY-MM`, checked: a real month of the years 2000–9999. */
export function parseCalendarMonth(field: string, value: unknown): string {
  const match = typeof value === 'string' ? MONTH_PATTERN.exec(value) : null;
  if (match === null || Number(match[1]) < 2000)
    throw new ValidationError(field, 'must be a month YYYY-MM (year 2000 or later)');
  return value as string;
}

export interface MonthSpan {
  month: string;
  /** Local midnight of the 1st, as an instant. */
  from: Date;
  /** Local midnight of the next month's 1st (exclusive). */
  to: Date;
  /** Every local day of the month, `YYYY-MM-DD`, in order. */
  days: string[];
}

/** The instants and local days of `month` (`YYYY-MM`) in `timeZone`. */
export function monthSpan(month: string, timeZone: string): MonthSpan {
  const first = startOfMonth(month, timeZone);
  const next = first.plus({ months: 1 });
  const days: string[] = [];
  for (let day = first; day < next; day = day.plus({ days: 1 })) days.push(day.toISODate()!);
  return { month, from: first.toJSDate(), to: next.toJSDate(), days };
}

/** The month `now` falls in, on the wall clock of `timeZone`. */
export function monthOf(now: Date, timeZone: string): string {
  requireZone(timeZone);
  return DateTime.fromJSDate(now, { zone: timeZone }).toFormat('yyyy-MM');
}

/** The month before `month`. */
export function previousMonth(month: string): string {
  return DateTime.fromFormat(month, 'yyyy-MM', { zone: 'UTC' }).minus({ months: 1 }).toFormat('yyyy-MM');
}

/** True once local midnight after the month's last day has passed in `timeZone`. */
export function monthHasEnded(month: string, now: Date, timeZone: string): boolean {
  return now.getTime() >= monthSpan(month, timeZone).to.getTime();
}

function startOfMonth(month: string, timeZone: string): DateTime {
  requireZone(timeZone);
  if (!MONTH_PATTERN.test(month)) throw new RangeError(`not a month YYYY-MM: ${month}`);
  return DateTime.fromFormat(month, 'yyyy-MM', { zone: timeZone }).startOf('month');
}

function requireZone(timeZone: string): void {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${timeZone}`);
}

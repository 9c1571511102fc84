import { ValidationError } from './errors';
import { expectObjectWithKeys, parseJsonArray, requireKey } from './json-input';
import { normalizePhoneNumber } from './phone';
import type { CountryCode } from './phone';
import { findOverlap, isInWindow, parseTimeWindow } from './time-window';
import type { TimeWindow } from './time-window';

/** The literal an alt-number rule uses instead of a phone number to divert calls to voicemail. */
export const VOICEMAIL_TARGET = 'voicemail';

export interface AltNumberRule extends TimeWindow {
  /** E.164, or 'voicemail'. */
  phonenr: string;
  altKey: string;
}

export interface ParsedAltNumber {
  phonenr: string;
  window: TimeWindow;
  altKey?: string;
}

const ALT_NUMBER_KEYS = ['phonenr', 'weekdays', 'from_time', 'to_time', 'alt_key'] as const;
const ALT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_ALT_NUMBERS = 100;

/** The first rule whose window holds the instant wins; without one the source's own number answers. */
export function selectAnsweringNumber(
  rules: readonly AltNumberRule[],
  defaultPhonenr: string,
  instant: Date,
  timeZone: string,
): { target: string; rule: AltNumberRule | null } {
  const rule = rules.find((r) => isInWindow(r, instant, timeZone));
  return rule === undefined ? { target: defaultPhonenr, rule: null } : { target: rule.phonenr, rule };
}

/**
 * Validates the alt_numbers array (a JSON value or JSON text). Overlapping rules are refused
 * because "first rule wins" would otherwise silently hide the later one.
 */
export function parseAltNumbers(field: string, raw: unknown, country: CountryCode): ParsedAltNumber[] {
  const entries = parseJsonArray(field, raw, MAX_ALT_NUMBERS);
  const parsed = entries.map((entry, index) => parseAltNumber(`${field}[${index}]`, entry, country));

  const seenKeys = new Map<string, number>();
  parsed.forEach((rule, index) => {
    if (rule.altKey === undefined) return;
    const first = seenKeys.get(rule.altKey);
    if (first !== undefined)
      throw new ValidationError(`${field}[${index}].alt_key`, `repeats ${field}[${first}].alt_key`);
    seenKeys.set(rule.altKey, index);
  });

  const overlap = findOverlap(parsed.map((rule) => rule.window));
  if (overlap !== null)
    throw new ValidationError(`${field}[${overlap[1]}]`, `overlaps ${field}[${overlap[0]}]`);
  return parsed;
}

function parseAltNumber(prefix: string, entry: unknown, country: CountryCode): ParsedAltNumber {
  const record = expectObjectWithKeys(prefix, entry, ALT_NUMBER_KEYS);
  const rawPhonenr = requireKey(prefix, record, 'phonenr');
  if (typeof rawPhonenr !== 'string')
    throw new ValidationError(`${prefix}.phonenr`, 'must be a phone number or "voicemail"');
  const phonenr =
    rawPhonenr.trim() === VOICEMAIL_TARGET
      ? VOICEMAIL_TARGET
      : normalizePhoneNumber(`${prefix}.phonenr`, rawPhonenr, country);

  const window = parseTimeWindow(prefix, {
    weekdays: requireKey(prefix, record, 'weekdays'),
    from_time: requireKey(prefix, record, 'from_time'),
    to_time: requireKey(prefix, record, 'to_time'),
  });

  const altKey = record.alt_key;
  if (altKey === undefined || altKey === null) return { phonenr, window };
  if (typeof altKey !== 'string' || !ALT_KEY_PATTERN.test(altKey)) {
    throw new ValidationError(`${prefix}.alt_key`, 'must be 1-64 letters, digits, "-" or "_"');
  }
  return { phonenr, window, altKey };
}

import {
  isCountryCode,
  isValidTimeZone,
  normalizePhoneNumber,
  parseFlag,
  ValidationError,
  type CountryCode,
} from '@trackline/domain';
import { RING_TIMEOUT_RANGE } from '@trackline/contracts';
import { parseAllowIp } from './allow-ip';
import { ON_EXHAUSTED_CHOICES, type OnExhausted } from './partner.entity';

// Checks of the operator's input, one per setting. Field names are the CLI option names, so an
// error reads the way the operator typed it.

const MAX_NAME_LENGTH = 100;
const MIN_PASSWORD_LENGTH = 8;
const MIN_SIGNING_SECRET_LENGTH = 16;
const CONTROL_CHARACTERS = /\p{Cc}/u;

export function parseName(value: string): string {
  if (value.trim() === '') throw new ValidationError('name', 'must not be empty');
  if (value !== value.trim()) throw new ValidationError('name', 'must not start or end with white space');
  if (value.length > MAX_NAME_LENGTH)
    throw new ValidationError('name', `must be at most ${MAX_NAME_LENGTH} characters`);
  if (CONTROL_CHARACTERS.test(value))
    throw new ValidationError('name', 'must not contain control characters');
  return value;
}

/** Digest sends the username quoted and hashes it joined with ':'; those characters would be ambiguous. */
export function parseUsername(value: string): string {
  if (value.trim() === '') throw new ValidationError('username', 'must not be empty');
  if (value !== value.trim()) throw new ValidationError('username', 'must not start or end with white space');
  if (value.length > MAX_NAME_LENGTH) {
    throw new ValidationError('username', `must be at most ${MAX_NAME_LENGTH} characters`);
  }
  if (/[:"\\]/.test(value) || CONTROL_CHARACTERS.test(value)) {
    throw new ValidationError('username', 'must not contain ":", \'"\', "\\" or control characters');
  }
  return value;
}

export function parsePassword(value: string): string {
  if ([...value].length < MIN_PASSWORD_LENGTH) {
    throw new ValidationError('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  return value;
}

export function parseSigningSecret(value: string): string {
  if ([...value].length < MIN_SIGNING_SECRET_LENGTH) {
    throw new ValidationError('signing-secret', `must be at least ${MIN_SIGNING_SECRET_LENGTH} characters`);
  }
  if (value !== value.trim())
    throw new ValidationError('signing-secret', 'must not start or end with white space');
  return value;
}

/** Canonical CIDRs without duplicates, in the order given. */
export function parseAllowIps(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => parseAllowIp('allow-ip', value)))];
}

export function parseCountry(value: string): CountryCode {
  const code = value.trim().toUpperCase();
  if (!isCountryCode(code))
    throw new ValidationError('country', `${value} is not a known ISO 3166 country code`);
  return code;
}

export function parseTimeZone(value: string): string {
  if (!isValidTimeZone(value)) throw new ValidationError('timezone', `${value} is not an IANA time zone`);
  return value;
}

export function parseOnExhausted(value: string): OnExhausted {
  const choice = ON_EXHAUSTED_CHOICES.find((candidate) => candidate === value);
  if (choice === undefined)
    throw new ValidationError('on-exhausted', `must be one of ${ON_EXHAUSTED_CHOICES.join(', ')}`);
  return choice;
}

/** An empty value clears the fallback number. */
export function parseFallbackNumber(value: string, country: CountryCode): string | null {
  return value.trim() === '' ? null : normalizePhoneNumber('fallback-number', value, country);
}

/** Whole seconds within the range replacement accepts; an empty value returns to the service default. */
export function parseRingTimeout(value: string): number | null {
  if (value.trim() === '') return null;
  const { min, max } = RING_TIMEOUT_RANGE;
  if (!/^\d{1,4}$/.test(value) || Number(value) < min || Number(value) > max)
    throw new ValidationError(
      'ring-timeout',
      `must be whole seconds from ${min} to ${max}, or "" for the default`,
    );
  return Number(value);
}

export function parseScreenCalls(value: string): boolean {
  return parseFlag('screen-calls', value);
}

export const MAX_CDR_RETENTION_MONTHS = 1200;
export const MAX_ANUM_MASK_AFTER_DAYS = 36500;

export function parseCdrRetentionMonths(value: string): number {
  return parseWholeNumber('cdr-retention-months', value, 1, MAX_CDR_RETENTION_MONTHS);
}

/** "off" (or an empty value) turns masking off. */
export function parseAnumMaskAfterDays(value: string): number | null {
  if (value.trim() === '' || value.trim() === 'off') return null;
  return parseWholeNumber('anum-mask-after-days', value, 1, MAX_ANUM_MASK_AFTER_DAYS);
}

function parseWholeNumber(field: string, value: string, min: number, max: number): number {
  const number = /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(number >= min && number <= max))
    throw new ValidationError(field, `must be a whole number from ${min} to ${max}`);
  return number;
}

export function parseShowFullAnum(value: string): boolean {
  return parseFlag('show-full-anum', value);
}

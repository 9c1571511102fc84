import {
  isCountryCode,
  isSpamPolicy,
  isValidTimeZone,
  normalizePhoneNumber,
  parseFlag,
  SPAM_POLICIES,
  ValidationError,
  type CountryCode,
  type SpamPolicy,
} from '@trackline/domain';
import { RING_TIMEOUT_RANGE } from '@trackline/contracts';
import { isEmail } from 'class-validator';
import { requiredOn, type DtoMode, type Presence } from '../validation/field-rules';
import { parseFields, type FieldRule, type FieldSchema } from '../validation/field-schema';
import { parseAllowIp } from './allow-ip';
import { parseHoldBack, parseSessionLifetime } from './session-timing';
import { ON_EXHAUSTED_CHOICES, type OnExhausted } from './partner.entity';

// The operator's partner settings (docs/operations.md), read by one schema whatever the caller: the
// CLI's partner:create and partner:update, and the fixtures that create partners. Each setting's
// rule checks its text once and yields its typed value. Field names are the CLI option names, so an
// error reads the way the operator typed it.

const MAX_NAME_LENGTH = 100;
const MIN_PASSWORD_LENGTH = 8;
const MIN_SIGNING_SECRET_LENGTH = 16;
const CONTROL_CHARACTERS = /\p{Cc}/u;

function parseName(value: string): string {
  if (value.trim() === '') throw new ValidationError('name', 'must not be empty');
  if (value !== value.trim()) throw new ValidationError('name', 'must not start or end with white space');
  if (value.length > MAX_NAME_LENGTH)
    throw new ValidationError('name', `must be at most ${MAX_NAME_LENGTH} characters`);
  if (CONTROL_CHARACTERS.test(value))
    throw new ValidationError('name', 'must not contain control characters');
  return value;
}

/** Digest sends the username quoted and hashes it joined with ':'; those characters would be ambiguous. */
function parseUsername(value: string): string {
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

function parsePassword(value: string): string {
  if ([...value].length < MIN_PASSWORD_LENGTH) {
    throw new ValidationError('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  return value;
}

function parseSigningSecret(value: string): string {
  if ([...value].length < MIN_SIGNING_SECRET_LENGTH) {
    throw new ValidationError('signing-secret', `must be at least ${MIN_SIGNING_SECRET_LENGTH} characters`);
  }
  if (value !== value.trim())
    throw new ValidationError('signing-secret', 'must not start or end with white space');
  return value;
}

/** Canonical CIDRs without duplicates, in the order given. */
function parseAllowIps(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => parseAllowIp('allow-ip', value)))];
}

function parseCountry(value: string): CountryCode {
  const code = value.trim().toUpperCase();
  if (!isCountryCode(code))
    throw new ValidationError('country', `${value} is not a known ISO 3166 country code`);
  return code;
}

function parseTimeZone(value: string): string {
  if (!isValidTimeZone(value)) throw new ValidationError('timezone', `${value} is not an IANA time zone`);
  return value;
}

function parseOnExhausted(value: string): OnExhausted {
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
function parseRingTimeout(value: string): number | null {
  if (value.trim() === '') return null;
  const { min, max } = RING_TIMEOUT_RANGE;
  if (!/^\d{1,4}$/.test(value) || Number(value) < min || Number(value) > max)
    throw new ValidationError(
      'ring-timeout',
      `must be whole seconds from ${min} to ${max}, or "" for the default`,
    );
  return Number(value);
}

function parseScreenCalls(value: string): boolean {
  return parseFlag('screen-calls', value);
}

export const MAX_CDR_RETENTION_MONTHS = 1200;
export const MAX_ANUM_MASK_AFTER_DAYS = 36500;

function parseCdrRetentionMonths(value: string): number {
  return parseWholeNumber('cdr-retention-months', value, 1, MAX_CDR_RETENTION_MONTHS);
}

/** "off" (or an empty value) turns masking off. */
function parseAnumMaskAfterDays(value: string): number | null {
  if (value.trim() === '' || value.trim() === 'off') return null;
  return parseWholeNumber('anum-mask-after-days', value, 1, MAX_ANUM_MASK_AFTER_DAYS);
}

export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;

/** "default" (or an empty value) returns to RATE_LIMIT_PER_MINUTE; 0 is no limit. */
function parseRateLimitPerMinute(value: string): number | null {
  if (value.trim() === '' || value.trim() === 'default') return null;
  if (!/^\d{1,7}$/.test(value.trim()) || Number(value.trim()) > MAX_RATE_LIMIT_PER_MINUTE)
    throw new ValidationError(
      'rate-limit-per-minute',
      `must be a whole number from 0 (no limit) to ${MAX_RATE_LIMIT_PER_MINUTE}, or "default"`,
    );
  return Number(value.trim());
}

function parseWholeNumber(field: string, value: string, min: number, max: number): number {
  const number = /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(number >= min && number <= max))
    throw new ValidationError(field, `must be a whole number from ${min} to ${max}`);
  return number;
}

/**
 * A share in (0, 1] with at most four decimal places (the column's scale), as a decimal: "0.01".
 * Exported: the partner API's `target_overflow` query parameter follows the same rule.
 */
export function parseShare(field: string, value: string): number {
  const number = /^(0|1)(\.\d{1,4})?$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(number > 0 && number <= 1))
    throw new ValidationError(field, 'must be a decimal above 0 and at most 1, with up to 4 decimal places');
  return number;
}

function parseSpamPolicy(value: string): SpamPolicy {
  if (!isSpamPolicy(value))
    throw new ValidationError('spam-policy', `must be one of ${SPAM_POLICIES.join(', ')}`);
  return value;
}

/** A whole score 0–100 (docs/spam.md). Exported: the partner API's `spam_threshold` follows the same rule. */
export function parseSpamThreshold(field: string, value: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) > 100)
    throw new ValidationError(field, 'must be a whole number from 0 to 100');
  return Number(value);
}

function parseTargetOverflow(value: string): number {
  return parseShare('target-overflow', value);
}

function parsePoolExhaustedShare(value: string): number {
  return parseShare('pool-exhausted-share', value);
}

function parseShowFullAnum(value: string): boolean {
  return parseFlag('show-full-anum', value);
}

export const MAX_CONTACT_EMAIL_LENGTH = 150;

/** An address Trackline can write to about the account; an empty value clears it. */
function parseContactEmail(value: string): string | null {
  const address = value.trim();
  if (address === '') return null;
  if (address.length > MAX_CONTACT_EMAIL_LENGTH || !isEmail(address))
    throw new ValidationError(
      'contact-email',
      `must be an e-mail address of at most ${MAX_CONTACT_EMAIL_LENGTH} characters, or "" for none`,
    );
  return address;
}

/** The settings as typed (strings, the allowlist as a list), keyed as the service takes them. */
export interface PartnerSettingsInput {
  username?: string;
  password?: string;
  signingSecret?: string;
  /** Replaces the whole list when given. */
  allowIps?: string[];
  country?: string;
  timeZone?: string;
  onExhausted?: string;
  /** Empty string clears it. */
  fallbackNumber?: string;
  /** "0" or "1". */
  showFullAnum?: string;
  /** Whole seconds; empty string returns to the service default. */
  ringTimeout?: string;
  /** "0" or "1". */
  screenCalls?: string;
  /** Whole months, 1–1200. */
  cdrRetentionMonths?: string;
  /** Whole days, or "off". */
  anumMaskAfterDays?: string;
  /** Requests per minute, 0 for no limit, or "default". */
  rateLimitPerMinute?: string;
  /** Whole seconds, 60–86400. */
  sessionLifetimeSeconds?: string;
  /** Whole seconds, 0–86400. */
  holdBackSeconds?: string;
  /** A decimal in (0, 1], e.g. "0.01". */
  targetOverflow?: string;
  /** A decimal in (0, 1], e.g. "0.05". */
  poolExhaustedShare?: string;
  /** allow, challenge, voicemail or reject. */
  spamPolicy?: string;
  /** A whole number 0–100. */
  spamThreshold?: string;
  /** An e-mail address; empty string clears it. */
  contactEmail?: string;
}

/** The settings after their checks; a key is present when the setting was given. */
export interface PartnerSettings {
  username?: string;
  password?: string;
  signingSecret?: string;
  allowIps?: string[];
  country?: CountryCode;
  timeZone?: string;
  onExhausted?: OnExhausted;
  /** As typed; "" clears it. Normalised with the partner's country by `parseFallbackNumber`. */
  fallbackNumber?: string;
  showFullAnum?: boolean;
  ringTimeout?: number | null;
  screenCalls?: boolean;
  cdrRetentionMonths?: number;
  anumMaskAfterDays?: number | null;
  /** null: the service default. */
  rateLimitPerMinute?: number | null;
  sessionLifetimeSeconds?: number;
  holdBackSeconds?: number;
  targetOverflow?: number;
  poolExhaustedShare?: number;
  spamPolicy?: SpamPolicy;
  spamThreshold?: number;
  /** null clears it. */
  contactEmail?: string | null;
}

/** An option's value as commander gives it: text, checked by the setting's own rule. */
function setting<T>(name: string, presence: Presence, parse: (value: string) => T): FieldRule<T> {
  return {
    name,
    presence,
    parse: (value) => {
      if (typeof value !== 'string') throw new ValidationError(name, 'must be a string');
      return parse(value);
    },
  };
}

// In the order the settings are checked.
function partnerSettingsSchema(mode: DtoMode): FieldSchema<PartnerSettings> {
  return {
    username: setting('username', requiredOn(mode), parseUsername),
    password: setting('password', requiredOn(mode), parsePassword),
    country: setting('country', 'optional', parseCountry),
    signingSecret: setting('signing-secret', requiredOn(mode), parseSigningSecret),
    allowIps: {
      name: 'allow-ip',
      presence: 'optional',
      parse: (value) => {
        if (!Array.isArray(value)) throw new ValidationError('allow-ip', 'must be a list of addresses');
        return parseAllowIps(value.map(String));
      },
    },
    timeZone: setting('timezone', 'optional', parseTimeZone),
    onExhausted: setting('on-exhausted', 'optional', parseOnExhausted),
    // Normalised with the partner's country by the service, which knows the stored one.
    fallbackNumber: setting('fallback-number', 'optional', (value) => value),
    showFullAnum: setting('show-full-anum', 'optional', parseShowFullAnum),
    ringTimeout: setting('ring-timeout', 'optional', parseRingTimeout),
    screenCalls: setting('screen-calls', 'optional', parseScreenCalls),
    cdrRetentionMonths: setting('cdr-retention-months', 'optional', parseCdrRetentionMonths),
    anumMaskAfterDays: setting('anum-mask-after-days', 'optional', parseAnumMaskAfterDays),
    rateLimitPerMinute: setting('rate-limit-per-minute', 'optional', parseRateLimitPerMinute),
    sessionLifetimeSeconds: setting('session-lifetime-seconds', 'optional', (value) =>
      parseSessionLifetime('session-lifetime-seconds', value),
    ),
    holdBackSeconds: setting('hold-back-seconds', 'optional', (value) =>
      parseHoldBack('hold-back-seconds', value),
    ),
    targetOverflow: setting('target-overflow', 'optional', parseTargetOverflow),
    poolExhaustedShare: setting('pool-exhausted-share', 'optional', parsePoolExhaustedShare),
    spamPolicy: setting('spam-policy', 'optional', parseSpamPolicy),
    spamThreshold: setting('spam-threshold', 'optional', (value) =>
      parseSpamThreshold('spam-threshold', value),
    ),
    contactEmail: setting('contact-email', 'optional', parseContactEmail),
  };
}

/** partner:create: name, username, password and signing secret are required. */
const CREATE_PARTNER: FieldSchema<PartnerSettings & { name: string }> = {
  name: setting('name', 'required', parseName),
  ...partnerSettingsSchema('create'),
};
/** partner:update: options left out keep their value. */
const UPDATE_PARTNER_SETTINGS = partnerSettingsSchema('update');

/** The CLI option of each setting: the schema's field names, and what `partner:update` reports changed. */
export const SETTING_OPTIONS = Object.fromEntries(
  Object.entries(UPDATE_PARTNER_SETTINGS).map(([key, rule]) => [key, (rule as FieldRule<unknown>).name]),
) as Record<keyof PartnerSettings, string>;

export function parseCreatePartner(input: PartnerSettingsInput & { name: string }): PartnerSettings & {
  name: string;
} {
  const parsed = parseFields(
    CREATE_PARTNER,
    { name: input.name, ...byOption(input) },
    'is not a known option',
  );
  return { ...parsed, name: parsed.name! };
}

export function parseUpdatePartnerSettings(input: PartnerSettingsInput): PartnerSettings {
  return parseFields(UPDATE_PARTNER_SETTINGS, byOption(input), 'is not a known option');
}

function byOption(input: PartnerSettingsInput): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(SETTING_OPTIONS)) {
    const value = input[key as keyof PartnerSettingsInput];
    if (value !== undefined) options[option] = value;
  }
  return options;
}

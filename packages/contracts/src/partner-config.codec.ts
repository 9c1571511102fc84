import {
  DEFAULT_SPAM_THRESHOLD,
  isCountryCode,
  isE164,
  isSpamPolicy,
  isValidTimeZone,
  type CountryCode,
  type SpamPolicy,
} from '@trackline/domain';
import { CONSENT_MAX_LENGTH, DEFAULT_CONSENT_ANNOUNCEMENT } from './call-recording';
import { isReadableProjectionVersion, PROJECTION_VERSION } from './projection-version';
import { fail } from './projection-error';

export type OnExhausted = 'recycle' | 'original';
export const ON_EXHAUSTED_VALUES: readonly OnExhausted[] = ['recycle', 'original'];

/** A new partner's settings until changed (docs/number-replacement.md); the partners table's defaults too. */
export const DEFAULT_SESSION_TTL_SECONDS = 1800;
export const DEFAULT_HOLD_BACK_SECONDS = 600;
/** What a partner or a pool may set them to (docs/pool-sizing.md, Session lifetime and hold-back). */
export const SESSION_LIFETIME_RANGE = { min: 60, max: 86_400 } as const;
export const HOLD_BACK_RANGE = { min: 0, max: 86_400 } as const;

/** What replacement needs to know about a partner; projected by management into `config`. */
export interface PartnerConfig {
  advId: string;
  signingSecret: string;
  country: CountryCode;
  /** IANA zone for alt-number windows. */
  timeZone: string;
  sessionTtlSeconds: number;
  holdBackSeconds: number;
  onExhausted: OnExhausted;
  /** E.164; where calls to an unbound pool number go. Null: such calls are rejected. */
  fallbackNumber: string | null;
  /**
   * How long a provider `<Dial>` rings the answering phone, seconds; null or absent: the
   * replacement service's TWILIO_RING_TIMEOUT_SECONDS (docs/telephony.md).
   */
  ringTimeoutSeconds?: number | null;
  /** Call screening: the answering phone must press 1 before the call counts as answered. */
  screenCalls?: boolean;
  /** What the voice webhook does with a call judged spam; absent: `allow` (docs/spam.md). */
  spamPolicy?: SpamPolicy;
  /** The score (0–100) from which a call is judged spam; absent: DEFAULT_SPAM_THRESHOLD. */
  spamThreshold?: number;
  /** Record answered calls (docs/telephony.md, Recording answered calls); absent: not recorded. */
  recordCalls?: boolean;
  /** Said before a recorded call is put through; '' : nothing; absent: DEFAULT_CONSENT_ANNOUNCEMENT. */
  consentAnnouncement?: string;
}

/** The range a partner's ring timeout may take. */
export const RING_TIMEOUT_RANGE = { min: 5, max: 600 } as const;

const WHAT = 'partner config';

/** Hash fields, all strings. `version` lets a reader tell a projection it understands from another. */
export function encodePartnerConfig(config: PartnerConfig): Record<string, string> {
  validate(config);
  return {
    version: String(PROJECTION_VERSION),
    adv_id: config.advId,
    signing_secret: config.signingSecret,
    country: config.country,
    time_zone: config.timeZone,
    session_ttl: String(config.sessionTtlSeconds),
    hold_back: String(config.holdBackSeconds),
    on_exhausted: config.onExhausted,
    fallback_number: config.fallbackNumber ?? '',
    // Written only when set, so a hash without them reads back as the defaults (the writer
    // replaces the whole hash, so a setting turned off leaves nothing behind).
    ...(config.ringTimeoutSeconds == null ? {} : { ring_timeout: String(config.ringTimeoutSeconds) }),
    ...(config.screenCalls === true ? { screen_calls: '1' } : {}),
    ...(config.spamPolicy === undefined || config.spamPolicy === 'allow'
      ? {}
      : { spam_policy: config.spamPolicy }),
    ...(config.spamThreshold === undefined || config.spamThreshold === DEFAULT_SPAM_THRESHOLD
      ? {}
      : { spam_threshold: String(config.spamThreshold) }),
    ...(config.recordCalls === true ? { record_calls: '1' } : {}),
    // Kept even while the partner does not record (a source may turn recording on and say it);
    // left out when it is the default, which a reader takes for an absent one.
    ...(config.consentAnnouncement === undefined ||
    config.consentAnnouncement === DEFAULT_CONSENT_ANNOUNCEMENT
      ? {}
      : { consent_announcement: config.consentAnnouncement }),
  };
}

/** HGETALL result → config; an empty hash (no such partner) is null. */
export function decodePartnerConfig(hash: Record<string, string>): PartnerConfig | null {
  if (Object.keys(hash).length === 0) return null;
  // Every readable version shares this layout (version 2 changed only the source routes).
  const version = hash.version !== undefined && /^\d{1,9}$/.test(hash.version) ? Number(hash.version) : null;
  if (!isReadableProjectionVersion(version)) {
    fail(
      WHAT,
      `projection version ${JSON.stringify(hash.version)}, this code reads up to ${PROJECTION_VERSION}`,
    );
  }
  const config: PartnerConfig = {
    advId: field(hash, 'adv_id'),
    signingSecret: field(hash, 'signing_secret'),
    country: field(hash, 'country') as CountryCode,
    timeZone: field(hash, 'time_zone'),
    sessionTtlSeconds: wholeSeconds(hash, 'session_ttl'),
    holdBackSeconds: wholeSeconds(hash, 'hold_back'),
    onExhausted: field(hash, 'on_exhausted') as OnExhausted,
    fallbackNumber: field(hash, 'fallback_number') === '' ? null : field(hash, 'fallback_number'),
    ...(hash.ring_timeout === undefined ? {} : { ringTimeoutSeconds: wholeSeconds(hash, 'ring_timeout') }),
    ...(hash.screen_calls === '1' ? { screenCalls: true } : {}),
    ...(hash.spam_policy === undefined ? {} : { spamPolicy: hash.spam_policy as SpamPolicy }),
    ...(hash.spam_threshold === undefined ? {} : { spamThreshold: wholeSeconds(hash, 'spam_threshold') }),
    ...(hash.record_calls === '1' ? { recordCalls: true } : {}),
    ...(hash.consent_announcement === undefined ? {} : { consentAnnouncement: hash.consent_announcement }),
  };
  validate(config);
  return config;
}

function field(hash: Record<string, string>, name: string): string {
  const value = hash[name];
  if (value === undefined) fail(WHAT, `missing field ${name}`);
  return value;
}

function wholeSeconds(hash: Record<string, string>, name: string): number {
  const raw = field(hash, name);
  if (!/^\d{1,9}$/.test(raw)) fail(WHAT, `${name} must be whole seconds`);
  return Number(raw);
}

function validate(config: PartnerConfig): void {
  if (config.advId === '') fail(WHAT, 'adv_id is empty');
  if (config.signingSecret === '') fail(WHAT, 'signing_secret is empty');
  if (!isCountryCode(config.country)) fail(WHAT, `unknown country ${JSON.stringify(config.country)}`);
  if (!isValidTimeZone(config.timeZone)) fail(WHAT, `unknown time zone ${JSON.stringify(config.timeZone)}`);
  if (!Number.isSafeInteger(config.sessionTtlSeconds) || config.sessionTtlSeconds < 1) {
    fail(WHAT, 'session_ttl must be at least 1 second');
  }
  if (!Number.isSafeInteger(config.holdBackSeconds) || config.holdBackSeconds < 0) {
    fail(WHAT, 'hold_back must not be negative');
  }
  if (!ON_EXHAUSTED_VALUES.includes(config.onExhausted)) {
    fail(WHAT, `on_exhausted must be one of ${ON_EXHAUSTED_VALUES.join(', ')}`);
  }
  if (config.fallbackNumber !== null && !isE164(config.fallbackNumber))
    fail(WHAT, 'fallback_number must be E.164');
  const ring = config.ringTimeoutSeconds;
  if (
    ring != null &&
    (!Number.isSafeInteger(ring) || ring < RING_TIMEOUT_RANGE.min || ring > RING_TIMEOUT_RANGE.max)
  )
    fail(WHAT, `ring_timeout must be ${RING_TIMEOUT_RANGE.min} to ${RING_TIMEOUT_RANGE.max} seconds`);
  if (config.spamPolicy !== undefined && !isSpamPolicy(config.spamPolicy))
    fail(WHAT, 'spam_policy must be allow, challenge, voicemail or reject');
  const threshold = config.spamThreshold;
  if (threshold !== undefined && (!Number.isSafeInteger(threshold) || threshold < 0 || threshold > 100))
    fail(WHAT, 'spam_threshold must be 0 to 100');
  if (config.consentAnnouncement !== undefined && config.consentAnnouncement.length > CONSENT_MAX_LENGTH)
    fail(WHAT, `consent_announcement must be at most ${CONSENT_MAX_LENGTH} characters`);
}

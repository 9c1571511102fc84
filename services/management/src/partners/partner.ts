import type { CallIntelligenceSettings } from './call-intelligence-settings';
import { DEFAULT_SPAM_THRESHOLD, type CountryCode, type SpamPolicy } from '@trackline/domain';
import type { CustomFieldEntity } from './partner-custom-field.entity';
import type { OnExhausted } from './partner.entity';

export interface DniSettings {
  sessionTtlSeconds: number;
  holdBackSeconds: number;
  onExhausted: OnExhausted;
  /**
   * E.164; calls to an unbound pool number go here, or are rejected when null (docs/number-replacement.md,
   * Routing a call).
   */
  fallbackNumber: string | null;
}

/** How provider calls are handled (docs/telephony.md). */
export interface CallSettings {
  /** Seconds a `<Dial>` rings; null: the replacement service's TWILIO_RING_TIMEOUT_SECONDS. */
  ringTimeoutSeconds: number | null;
  /** The answering phone hears a whisper and must press 1 before the call counts as answered. */
  screenCalls: boolean;
}

/** How the pool-sizing advisor and `pool.exhausted` judge the partner's pool (docs/pool-sizing.md). */
export interface PoolSizingSettings {
  /** The Erlang B blocking the recommended pool size must reach, in (0, 1]. */
  targetOverflow: number;
  /** An hour whose recycled bindings ÷ bindings passes this raises `pool.exhausted`, in (0, 1]. */
  exhaustedShare: number;
}

export const DEFAULT_POOL_SIZING: PoolSizingSettings = { targetOverflow: 0.01, exhaustedShare: 0.05 };

/** What the voice webhook does with calls judged spam, and from which score (docs/spam.md). */
export interface SpamSettings {
  policy: SpamPolicy;
  /** 0–100. */
  threshold: number;
}

export const DEFAULT_SPAM_SETTINGS: SpamSettings = { policy: 'allow', threshold: DEFAULT_SPAM_THRESHOLD };

/** A partner as services see it (the store maps rows to this). */
export interface Partner {
  id: string;
  /** The advId. */
  name: string;
  digestUsername: string;
  ha1Md5: string;
  ha1Sha256: string;
  signingSecret: string;
  /** Canonical CIDRs. */
  allowIps: string[];
  country: CountryCode;
  timeZone: string;
  dni: DniSettings;
  showFullAnum: boolean;
  calls: CallSettings;
  /** Records older than this many months are deleted by the daily job (docs/privacy.md). */
  cdrRetentionMonths: number;
  /** Callers' numbers are masked in records older than this many days; null: never. */
  anumMaskAfterDays: number | null;
  /**
   * Partner API requests per minute (docs/partner-api.md, Rate limit); null: the service's
   * RATE_LIMIT_PER_MINUTE, 0: no limit.
   */
  rateLimitPerMinute: number | null;
  pool: PoolSizingSettings;
  spam: SpamSettings;
  /** Recording, consent, transcription, automatic outcomes, redaction (docs/call-intelligence.md). */
  intelligence: CallIntelligenceSettings;
  /** Where Trackline writes to the partner (a webhook it disabled, docs/webhooks.md); null: nowhere. */
  contactEmail: string | null;
  customFields: Record<CustomFieldEntity, string[]>;
  created: Date;
  modified: Date;
}

/** What a store writes; ids, custom fields and timestamps are the store's business. */
export type PartnerValues = Omit<
  Partner,
  | 'id'
  | 'customFields'
  | 'created'
  | 'modified'
  | 'calls'
  | 'rateLimitPerMinute'
  | 'pool'
  | 'spam'
  | 'intelligence'
  | 'contactEmail'
> & {
  /** Left out: the column default (every setting at its default, `DEFAULT_CALL_INTELLIGENCE`). */
  intelligence?: CallIntelligenceSettings;
  /** Left out: none. */
  contactEmail?: string | null;
  /** Left out: the column defaults (ring timeout from the service, no screening). */
  calls?: CallSettings;
  /** Left out: null, the service default. */
  rateLimitPerMinute?: number | null;
  /** Left out: the column defaults (`DEFAULT_POOL_SIZING`). */
  pool?: PoolSizingSettings;
  /** Left out: the column defaults (`DEFAULT_SPAM_SETTINGS`). */
  spam?: SpamSettings;
};

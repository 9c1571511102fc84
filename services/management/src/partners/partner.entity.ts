import { DEFAULT_HOLD_BACK_SECONDS, DEFAULT_SESSION_TTL_SECONDS } from '@trackline/contracts';
import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

export const ON_EXHAUSTED_CHOICES = ['recycle', 'original'] as const;
export type OnExhausted = (typeof ON_EXHAUSTED_CHOICES)[number];

// Only the digest HA1 values are kept, never the password (docs/partner-api.md, Accounts).
/** A JSON object column read by its feature's own parser; values are plain JSON. */
export type StoredJson = Record<string, string | number | boolean | string[] | null>;

@Entity({ name: 'partners' })
@Unique('UQ_partners_name', ['name'])
@Unique('UQ_partners_digest_username', ['digestUsername'])
@Check('CHK_partners_dni_on_exhausted', `"dni_on_exhausted" IN ('recycle', 'original')`)
@Check('CHK_partners_cdr_retention_months', `"cdr_retention_months" BETWEEN 1 AND 1200`)
@Check('CHK_partners_anum_mask_after_days', `"anum_mask_after_days" BETWEEN 1 AND 36500`)
@Check('CHK_partners_rate_limit_per_minute', `"rate_limit_per_minute" BETWEEN 0 AND 1000000`)
@Check('CHK_partners_target_overflow', `"target_overflow" > 0 AND "target_overflow" <= 1`)
@Check('CHK_partners_pool_exhausted_share', `"pool_exhausted_share" > 0 AND "pool_exhausted_share" <= 1`)
@Check('CHK_partners_spam_policy', `"spam_policy" IN ('allow', 'challenge', 'voicemail', 'reject')`)
@Check('CHK_partners_spam_threshold', `"spam_threshold" BETWEEN 0 AND 100`)
export class PartnerEntity {
  /** bigint comes back from pg as a decimal string, which is what the API shows. */
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_partners',
  })
  id!: string;

  /** The advId of replacement requests. */
  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'digest_username', type: 'text' })
  digestUsername!: string;

  @Column({ name: 'ha1_md5', type: 'text' })
  ha1Md5!: string;

  @Column({ name: 'ha1_sha256', type: 'text' })
  ha1Sha256!: string;

  @Column({ name: 'signing_secret', type: 'text' })
  signingSecret!: string;

  /** CIDRs; a single address is stored with its full prefix (/32 or /128). */
  @Column({ name: 'allow_ips', type: 'text', array: true, default: () => "'{}'" })
  allowIps!: string[];

  @Column({ type: 'text', default: 'NO' })
  country!: string;

  @Column({ name: 'time_zone', type: 'text', default: 'Europe/Oslo' })
  timeZone!: string;

  @Column({ name: 'dni_session_ttl_seconds', type: 'integer', default: DEFAULT_SESSION_TTL_SECONDS })
  dniSessionTtlSeconds!: number;

  @Column({ name: 'dni_hold_back_seconds', type: 'integer', default: DEFAULT_HOLD_BACK_SECONDS })
  dniHoldBackSeconds!: number;

  @Column({ name: 'dni_on_exhausted', type: 'text', default: 'recycle' })
  dniOnExhausted!: OnExhausted;

  @Column({ name: 'dni_fallback_number', type: 'text', nullable: true })
  dniFallbackNumber!: string | null;

  @Column({ name: 'show_full_anum', type: 'boolean', default: false })
  showFullAnum!: boolean;

  @Column({ name: 'ring_timeout_seconds', type: 'integer', nullable: true })
  ringTimeoutSeconds!: number | null;

  @Column({ name: 'screen_calls', type: 'boolean', default: false })
  screenCalls!: boolean;

  /** Records (and their recordings) older than this many months are deleted (docs/privacy.md). */
  @Column({ name: 'cdr_retention_months', type: 'integer', default: 24 })
  cdrRetentionMonths!: number;

  /** Callers' numbers are masked in records older than this many days; null: never (docs/privacy.md). */
  @Column({ name: 'anum_mask_after_days', type: 'integer', nullable: true })
  anumMaskAfterDays!: number | null;

  /** Partner API requests per minute; null: RATE_LIMIT_PER_MINUTE, 0: no limit (docs/partner-api.md). */
  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true })
  rateLimitPerMinute!: number | null;
  /** The Erlang B blocking the pool-sizing advisor sizes for (docs/pool-sizing.md); a decimal string. */
  @Column({ name: 'target_overflow', type: 'numeric', precision: 5, scale: 4, default: () => '0.01' })
  targetOverflow!: string;

  /** An hour whose recycled share passes this raises `pool.exhausted` (docs/pool-sizing.md); a decimal string. */
  @Column({ name: 'pool_exhausted_share', type: 'numeric', precision: 5, scale: 4, default: () => '0.05' })
  poolExhaustedShare!: string;

  /** What the voice webhook does with calls judged spam (docs/spam.md): a SpamPolicy of the domain. */
  @Column({ name: 'spam_policy', type: 'varchar', length: 16, default: 'allow' })
  spamPolicy!: string;

  /** The score (0–100) from which a call is judged spam (docs/spam.md). */
  @Column({ name: 'spam_threshold', type: 'smallint', default: 70 })
  spamThreshold!: number;

  /** Recording, consent, transcription, automatic outcomes, redaction (docs/call-intelligence.md); a key left out is its default. */
  @Column({ name: 'call_intelligence', type: 'jsonb', default: () => "'{}'" })
  callIntelligence!: StoredJson;

  /** The partner's classification rules (docs/call-intelligence.md); null: the built-in ones. */
  @Column({ name: 'classification_rules', type: 'jsonb', nullable: true })
  classificationRules!: StoredJson | null;

  /** Where Trackline writes to the partner about its account (a webhook it disabled); null: nowhere. */
  @Column({ name: 'contact_email', type: 'varchar', length: 150, nullable: true })
  contactEmail!: string | null;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ name: 'modified', type: 'timestamptz' })
  modified!: Date;
}

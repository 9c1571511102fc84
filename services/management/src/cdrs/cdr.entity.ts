import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

/**
 * One call record. Mirrors migrations 1795263500000-CreateCdrs and 1795462563963-PartitionCdrsByMonth:
 * the table is partitioned by UTC month of `start`, so `start` is part of the primary key and the
 * call_id idempotency lives in "cdr_call_ids" (docs/operations.md, "Monthly partitions of cdrs").
 */
@Entity({ name: 'cdrs' })
@Index('IDX_cdrs_partner_customer_start', ['partnerId', 'customerId', 'start', 'id'])
@Index('IDX_cdrs_campaign_anum_leads', ['campaignId', 'anum', 'start'], { where: `"commission" IS NOT NULL` })
@Index('IDX_cdrs_outcomes', ['partnerId', 'customerId', 'start'], { where: `"outcome_status" IS NOT NULL` })
export class CdrEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_cdrs',
  })
  id!: string;

  @Column({ name: 'call_id', type: 'varchar', length: 128 })
  callId!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_cdrs_partner' })
  partner?: PartnerEntity;

  @Column({ name: 'customer_id', type: 'bigint', nullable: true })
  customerId!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  custnr!: string | null;

  @Column({ name: 'source_id', type: 'bigint', nullable: true })
  sourceId!: string | null;

  @Column({ name: 'campaign_id', type: 'bigint', nullable: true })
  campaignId!: string | null;

  @Column({ name: 'pricing_model_id', type: 'uuid', nullable: true })
  pricingModelId!: string | null;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'PK_cdrs' })
  start!: Date;

  @Column({ type: 'integer' })
  duration!: number;

  @Column({ type: 'varchar', length: 32 })
  anum!: string;

  @Column({ type: 'varchar', length: 16 })
  bnum!: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  cnum!: string | null;

  @Column({ type: 'boolean' })
  answered!: boolean;

  @Column({ type: 'boolean' })
  voicemail!: boolean;

  @Column({ name: 'anum_ndc_name', type: 'varchar', length: 45, nullable: true })
  anumNdcName!: string | null;

  @Column({ type: 'boolean' })
  quarantined!: boolean;

  /** Exact decimal; read back as text, never as a float. */
  @Column({ type: 'numeric', precision: 12, scale: 2, nullable: true })
  commission!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  media!: string | null;

  @Column({ name: 'class', type: 'varchar', length: 45, nullable: true })
  sourceClass!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  expire!: Date | null;

  @Column({ name: 'publisher_id', type: 'varchar', length: 100, nullable: true })
  publisherId!: string | null;

  @Column({ name: 'cli_id', type: 'varchar', length: 100, nullable: true })
  cliId!: string | null;

  @Column({ name: 'order_id', type: 'varchar', length: 100, nullable: true })
  orderId!: string | null;

  @Column({ name: 'session_id', type: 'varchar', length: 100, nullable: true })
  sessionId!: string | null;

  @Column({ name: 'tracking_id', type: 'varchar', length: 100, nullable: true })
  trackingId!: string | null;

  @Column({ name: 'full_url', type: 'text', nullable: true })
  fullUrl!: string | null;

  @Column({ name: 'full_referrer', type: 'text', nullable: true })
  fullReferrer!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  parameters!: Record<string, string> | null;

  /** An AttributionKind of the domain; null when not known (docs/cdrs.md, Attribution confidence). */
  @Column({ type: 'varchar', length: 16, nullable: true })
  attribution!: string | null;

  @Column({ name: 'bound_seconds', type: 'integer', nullable: true })
  boundSeconds!: number | null;

  /** Click and analytics ids from the session's parameters (docs/conversions.md). */
  @Column({ type: 'varchar', length: 150, nullable: true })
  gclid!: string | null;

  @Column({ type: 'varchar', length: 150, nullable: true })
  gbraid!: string | null;

  @Column({ type: 'varchar', length: 150, nullable: true })
  wbraid!: string | null;

  @Column({ name: 'ga_client_id', type: 'varchar', length: 64, nullable: true })
  gaClientId!: string | null;

  @Column({ name: 'ga_session_id', type: 'varchar', length: 20, nullable: true })
  gaSessionId!: string | null;

  /** The partner's outcome of the call (docs/conversions.md, Outcomes); null until one is posted. */
  @Column({ name: 'outcome_status', type: 'varchar', length: 16, nullable: true })
  outcomeStatus!: string | null;

  /** Exact decimal; read back as text, never as a float. */
  @Column({ name: 'outcome_value', type: 'numeric', precision: 18, scale: 4, nullable: true })
  outcomeValue!: string | null;

  @Column({ name: 'outcome_currency', type: 'varchar', length: 3, nullable: true })
  outcomeCurrency!: string | null;

  @Column({ name: 'outcome_note', type: 'varchar', length: 1000, nullable: true })
  outcomeNote!: string | null;

  @Column({ name: 'outcome_at', type: 'timestamptz', nullable: true })
  outcomeAt!: Date | null;
  /** The provider's STIR/SHAKEN verification (docs/spam.md); null when none was sent. */
  @Column({ name: 'stir_verstat', type: 'varchar', length: 40, nullable: true })
  stirVerstat!: string | null;

  /** 0–100; null for records stored before spam scoring. */
  @Column({ name: 'spam_score', type: 'smallint', nullable: true })
  spamScore!: number | null;

  /** Reason codes, comma-separated (docs/spam.md). */
  @Column({ name: 'spam_reasons', type: 'varchar', length: 200, nullable: true })
  spamReasons!: string | null;

  /** Judged spam (or marked so by the partner): earns nothing, notifies no missed call. */
  @Column({ type: 'boolean', default: false })
  spam!: boolean;

  /** The partner's own mark (PUT /cdrs/<id>/spam); null: never marked. */
  @Column({ name: 'spam_marked', type: 'boolean', nullable: true })
  spamMarked!: boolean | null;

  @Column({ type: 'bytea', nullable: true })
  recording!: Buffer | null;

  /** When the record was stored. */
  @Column({ name: 'timestamp', type: 'timestamptz' })
  timestamp!: Date;
}

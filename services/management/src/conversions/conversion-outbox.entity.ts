import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { PartnerIntegrationEntity } from '../integrations/partner-integration.entity';

/**
 * The conversion outbox (docs/conversions.md, Delivery): one row per conversion and destination,
 * written in the transaction that stored the call record or its outcome. `order_id` is stable per
 * call and kind, so a conversion is queued once however often its cause is repeated, and Google Ads
 * counts it once however often it is sent. pending / sending (leased) / sent / dead, as the webhook
 * outbox.
 */
@Entity({ name: 'conversion_outbox' })
@Unique('UQ_conversion_outbox_order', ['partnerId', 'destination', 'orderId'])
@Check('CHK_conversion_outbox_status', `"status" IN ('pending', 'sending', 'sent', 'dead')`)
@Check('CHK_conversion_outbox_destination', `"destination" IN ('google_ads', 'ga4')`)
@Index('IDX_conversion_outbox_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('IDX_conversion_outbox_lease', ['lockedUntil'], { where: `"status" = 'sending'` })
@Index('IDX_conversion_outbox_cdr', ['partnerId', 'cdrId'])
@Index('IDX_conversion_outbox_lane', ['integrationId', 'nextAttemptAt', 'id'], {
  where: `"status" = 'pending'`,
})
export class ConversionOutboxEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_conversion_outbox',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @Column({ name: 'cdr_id', type: 'bigint' })
  cdrId!: string;

  /** The record's start (its monthly partition); NULL for rows queued before it was kept. */
  @Column({ name: 'cdr_start', type: 'timestamptz', nullable: true })
  cdrStart!: Date | null;

  /** The integration it goes to: its lane; removing the integration removes its queue. */
  @Column({ name: 'integration_id', type: 'bigint' })
  integrationId!: string;

  @ManyToOne(() => PartnerIntegrationEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'integration_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'FK_conversion_outbox_integration',
  })
  integration?: PartnerIntegrationEntity;

  @Column({ type: 'varchar', length: 16 })
  destination!: string;

  @Column({ name: 'order_id', type: 'varchar', length: 64 })
  orderId!: string;

  /** For an outcome's conversion: the outcome as it was when queued. Null for the call's own. */
  @Column({ name: 'outcome_status', type: 'varchar', length: 16, nullable: true })
  outcomeStatus!: string | null;

  @Column({ name: 'outcome_value', type: 'numeric', precision: 18, scale: 4, nullable: true })
  outcomeValue!: string | null;

  @Column({ name: 'outcome_currency', type: 'varchar', length: 3, nullable: true })
  outcomeCurrency!: string | null;

  /** When the call started or the outcome was posted: the conversion's time. */
  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ type: 'varchar', length: 8, default: 'pending' })
  status!: string;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'locked_by', type: 'varchar', length: 200, nullable: true })
  lockedBy!: string | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}

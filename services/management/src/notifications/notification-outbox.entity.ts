import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Generated,
  Index,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import type { OutboxPayload } from './outbox-payload';
import type { NotificationChannel, NotificationKind } from './outbox-writer';

/**
 * pending: waiting for next_attempt_at. sending: claimed by locked_by until locked_until (after
 * that any worker may take it again). sent / dead / logged are final; logged means no channel was
 * configured and the message went to the log instead (docs/notifications.md, The worker).
 */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'dead' | 'logged';

@Entity({ name: 'notification_outbox' })
@Unique('UQ_notification_outbox_delivery_key', ['deliveryKey'])
@Check('CHK_notification_outbox_channel', `"channel" IN ('email', 'sms')`)
@Check(
  'CHK_notification_outbox_kind',
  `"kind" IN ('missed_call', 'new_voicemail', 'monthly_report', 'webhook_disabled')`,
)
@Unique('UQ_notification_outbox_unique_key', ['uniqueKey'])
@Check('CHK_notification_outbox_status', `"status" IN ('pending', 'sending', 'sent', 'dead', 'logged')`)
@Index('IDX_notification_outbox_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('IDX_notification_outbox_lease', ['lockedUntil'], { where: `"status" = 'sending'` })
@Index('IDX_notification_outbox_cdr', ['cdrId'])
export class NotificationOutboxEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_notification_outbox',
  })
  id!: string;

  /** Sent as the SMS idempotency key and in the e-mail Message-ID: unique across installations. */
  @Column({ name: 'delivery_key', type: 'uuid' })
  @Generated('uuid')
  deliveryKey!: string;

  @Column({ type: 'varchar', length: 8 })
  channel!: NotificationChannel;

  @Column({ type: 'varchar', length: 16 })
  kind!: NotificationKind;

  @Column({ type: 'varchar', length: 320 })
  recipient!: string;

  /** Null for a message about no single call (a monthly report). */
  @Column({ name: 'cdr_id', type: 'bigint', nullable: true })
  cdrId!: string | null;

  @Column({ type: 'jsonb' })
  payload!: OutboxPayload;

  @Column({ name: 'attachment_cdr_id', type: 'bigint', nullable: true })
  attachmentCdrId!: string | null;

  @Column({ type: 'varchar', length: 8, default: 'pending' })
  status!: OutboxStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

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

  /** At most one row per key: `monthly_report:<customer_id>:<YYYY-MM>` (docs/reports.md). */
  @Column({ name: 'unique_key', type: 'varchar', length: 100, nullable: true })
  uniqueKey!: string | null;
}

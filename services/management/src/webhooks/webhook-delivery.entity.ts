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
import { WebhookEntity } from './webhook.entity';

/**
 * pending: waiting for next_attempt_at. sending: claimed by locked_by until locked_until (after
 * that any worker may take it again). sent and dead are final (dead: a 4xx, or every attempt failed).
 */
export type WebhookDeliveryStatus = 'pending' | 'sending' | 'sent' | 'dead';

/**
 * The webhook outbox: one row per event and webhook, written in the transaction that stored the
 * event. It names the record (CDR or customer) rather than copying it: the body is rendered from
 * the stored record when it is sent, so no second copy of a caller's number is kept here.
 */
@Entity({ name: 'webhook_deliveries' })
@Unique('UQ_webhook_deliveries_message_id', ['messageId'])
@Check('CHK_webhook_deliveries_status', `"status" IN ('pending', 'sending', 'sent', 'dead')`)
@Index('IDX_webhook_deliveries_due', ['webhookId', 'nextAttemptAt', 'id'], { where: `"status" = 'pending'` })
@Index('IDX_webhook_deliveries_lease', ['lockedUntil'], { where: `"status" = 'sending'` })
@Index('IDX_webhook_deliveries_dead', ['created'], { where: `"status" = 'dead'` })
@Index('IDX_webhook_deliveries_webhook', ['webhookId', 'id'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_webhook_deliveries',
  })
  id!: string;

  /** The `webhook-id` header: the same on every attempt, unique across installations. */
  @Column({ name: 'message_id', type: 'varchar', length: 40 })
  messageId!: string;

  @Column({ name: 'webhook_id', type: 'bigint' })
  webhookId!: string;

  // A deleted webhook takes its queue with it: nothing is sent to an endpoint the partner removed.
  @ManyToOne(() => WebhookEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'webhook_id', foreignKeyConstraintName: 'FK_webhook_deliveries_webhook' })
  webhook?: WebhookEntity;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @Column({ name: 'event_type', type: 'varchar', length: 32 })
  eventType!: string;

  @Column({ name: 'cdr_id', type: 'bigint', nullable: true })
  cdrId!: string | null;

  /** The record's start (its monthly partition), for a call event's record; NULL for rows queued before it was kept. */
  @Column({ name: 'cdr_start', type: 'timestamptz', nullable: true })
  cdrStart!: Date | null;

  @Column({ name: 'customer_id', type: 'bigint', nullable: true })
  customerId!: string | null;

  /** For `webhook.disabled`: the webhook the event is about (another of the partner's). */
  @Column({ name: 'subject_webhook_id', type: 'bigint', nullable: true })
  subjectWebhookId!: string | null;

  /** When the event happened: the body's `timestamp`, the same on every attempt. */
  @Column({ name: 'occurred_at', type: 'timestamptz', default: () => 'now()' })
  occurredAt!: Date;

  @Column({ type: 'varchar', length: 8, default: 'pending' })
  status!: WebhookDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  /** The receiver's answer to the last attempt; null when it gave none (refused, timed out). */
  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

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

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/**
 * One attempt of a delivery, for the delivery log (docs/webhooks.md, Delivery log): the request as
 * sent (never its signature or the secret) and the receiver's answer, its body cut to 1 KiB.
 */
@Entity({ name: 'webhook_delivery_attempts' })
@Index('IDX_webhook_delivery_attempts_delivery', ['deliveryId', 'id'])
export class WebhookDeliveryAttemptEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_webhook_delivery_attempts',
  })
  id!: string;

  @Column({ name: 'delivery_id', type: 'bigint' })
  deliveryId!: string;

  // The log goes with its delivery (a deleted webhook takes both).
  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_webhook_delivery_attempts_delivery' })
  delivery?: WebhookDeliveryEntity;

  /** 1 for the first; counts on across resends. */
  @Column({ type: 'integer' })
  attempt!: number;

  /** Also the request's `webhook-timestamp`. */
  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt!: Date;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  @Column({ type: 'varchar', length: 2000 })
  url!: string;

  @Column({ name: 'body_bytes', type: 'integer' })
  bodyBytes!: number;

  /** Null when no answer came (refused, timed out). */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  error!: string | null;

  /** The first 1 KiB of the answer's body. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody!: string | null;
}

import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The audit of the pool's autoscaling (docs/pool-sizing.md, Autoscaling): one row per evaluation
 * that changed the pool, failed, or was asked for; what it saw, what it did and why. Partners are
 * never deleted, so no foreign key keeps rows tidy.
 */
@Entity({ name: 'pool_resizes' })
@Index('IDX_pool_resizes_partner_at', ['partnerId', 'at'])
@Check('CHK_pool_resizes_outcome', `"outcome" IN ('grew', 'shrank', 'unchanged', 'failed')`)
export class PoolResizeEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_pool_resizes',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  /** The transaction time, also the `pool.resized` deliveries' `occurred_at`. */
  @Column({ type: 'timestamptz' })
  at!: Date;

  /** What started it: `schedule`, `api` or `cli`. */
  @Column({ type: 'character varying', length: 16 })
  trigger!: string;

  @Column({ type: 'character varying', length: 16 })
  outcome!: string;

  @Column({ name: 'from_size', type: 'integer' })
  fromSize!: number;

  @Column({ name: 'to_size', type: 'integer' })
  toSize!: number;

  @Column({ type: 'text', array: true, default: '{}' })
  added!: string[];

  @Column({ type: 'text', array: true, default: '{}' })
  released!: string[];

  @Column({ type: 'character varying', length: 500 })
  reason!: string;

  /** The carrier's error code (Twilio's, e.g. 21422) or HTTP status; null unless failed. */
  @Column({ name: 'error_code', type: 'character varying', length: 32, nullable: true })
  errorCode!: string | null;

  @Column({ type: 'character varying', length: 1000, nullable: true })
  error!: string | null;

  /** The advisor's figures and the caps the plan was made from; json keeps their order. */
  @Column({ type: 'json' })
  plan!: unknown;
}

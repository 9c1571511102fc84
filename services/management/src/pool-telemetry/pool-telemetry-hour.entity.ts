import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One partner-hour of pool telemetry (docs/pool-sizing.md), written only by the rollup
 * (`pool-telemetry.store.ts`). Partners are never deleted, so no foreign key keeps rows tidy.
 */
@Entity({ name: 'pool_telemetry_hours' })
export class PoolTelemetryHourEntity {
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_pool_telemetry_hours' })
  partnerId!: string;

  /** The hour's start (UTC). */
  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'PK_pool_telemetry_hours' })
  hour!: Date;

  @Column({ type: 'integer', default: 0 })
  sessions!: number;

  @Column({ type: 'integer', default: 0 })
  issued!: number;

  @Column({ type: 'integer', default: 0 })
  recycled!: number;

  @Column({ name: 'peak_leased', type: 'integer', default: 0 })
  peakLeased!: number;

  /** Call records that started in the hour on a pool number (attribution session, recycled, after_session). */
  @Column({ name: 'pool_calls', type: 'integer', default: 0 })
  poolCalls!: number;

  /** Rolled after the hour ended (and a grace for requests in flight): Redis is not read for it again. */
  @Column({ type: 'boolean', default: false })
  closed!: boolean;

  /** When `pool.exhausted` was raised for this hour: the transaction time of its webhook deliveries. */
  @Column({ name: 'exhausted_at', type: 'timestamptz', nullable: true })
  exhaustedAt!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated!: Date;
}

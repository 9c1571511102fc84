import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

/**
 * A partner's pool's own settings (docs/pool-sizing.md): the session lifetime and hold-back that
 * override the partner's, and the autoscaling policy. No row: every setting at its default.
 */
@Entity({ name: 'number_pool_settings' })
export class NumberPoolSettingsEntity {
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_number_pool_settings' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_number_pool_settings_partner' })
  partner?: PartnerEntity;

  @Column({ name: 'session_lifetime_seconds', type: 'integer', nullable: true })
  sessionLifetimeSeconds!: number | null;

  @Column({ name: 'hold_back_seconds', type: 'integer', nullable: true })
  holdBackSeconds!: number | null;

  @Column({ type: 'boolean', default: false })
  autoscaling!: boolean;

  @Column({ name: 'min_size', type: 'integer', default: 0 })
  minSize!: number;

  @Column({ name: 'max_size', type: 'integer', nullable: true })
  maxSize!: number | null;

  @Column({ name: 'target_overflow', type: 'numeric', precision: 5, scale: 4, nullable: true })
  targetOverflow!: string | null;

  @Column({ name: 'max_monthly_cost', type: 'numeric', precision: 10, scale: 2, nullable: true })
  maxMonthlyCost!: string | null;

  @Column({ name: 'number_monthly_price', type: 'numeric', precision: 12, scale: 4, nullable: true })
  numberMonthlyPrice!: string | null;

  @Column({ type: 'character varying', length: 2, nullable: true })
  country!: string | null;

  @Column({ name: 'area_code', type: 'character varying', length: 6, nullable: true })
  areaCode!: string | null;

  @Column({ type: 'character varying', length: 16, nullable: true })
  contains!: string | null;

  /** When a replica last took the pool's evaluation: one replica a round (docs/pool-sizing.md). */
  @Column({ name: 'last_evaluated_at', type: 'timestamptz', nullable: true })
  lastEvaluatedAt!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}

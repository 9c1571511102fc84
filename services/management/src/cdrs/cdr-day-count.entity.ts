import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Records per customer and UTC day of `start`, kept by triggers on "cdrs". Mirrors migration
 * 1795263700000-CreateCdrDayCounts; read by the statistics page, never written by the application.
 */
@Entity({ name: 'cdr_day_counts' })
export class CdrDayCountEntity {
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_cdr_day_counts' })
  partnerId!: string;

  @PrimaryColumn({ name: 'customer_id', type: 'bigint', primaryKeyConstraintName: 'PK_cdr_day_counts' })
  customerId!: string;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'PK_cdr_day_counts' })
  day!: string;

  @Column({ type: 'integer' })
  count!: number;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Call figures per customer, source and UTC quarter hour of `start`, kept by triggers on "cdrs".
 * Mirrors migration 1795462611024-CreateCdrReportBuckets; read by the monthly report, never written
 * by the application. `source_id` 0 stands for calls without a source.
 */
@Entity({ name: 'cdr_report_buckets' })
export class CdrReportBucketEntity {
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_cdr_report_buckets' })
  partnerId!: string;

  @PrimaryColumn({ name: 'customer_id', type: 'bigint', primaryKeyConstraintName: 'PK_cdr_report_buckets' })
  customerId!: string;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'PK_cdr_report_buckets' })
  bucket!: Date;

  @PrimaryColumn({ name: 'source_id', type: 'bigint', primaryKeyConstraintName: 'PK_cdr_report_buckets' })
  sourceId!: string;

  @Column({ type: 'integer' })
  calls!: number;

  @Column({ type: 'integer' })
  answered!: number;

  @Column({ type: 'integer' })
  voicemails!: number;

  @Column({ type: 'integer' })
  leads!: number;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  commission!: string;
}

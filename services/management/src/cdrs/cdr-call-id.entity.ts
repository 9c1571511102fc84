import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The (partner, call_id) of every stored record, unpartitioned, so a partner's call is stored once
 * whichever month its `start` falls in (docs/cdrs.md, "Idempotency"). Kept by triggers on "cdrs" (migrations 1795462563963-PartitionCdrsByMonth, 1795490000001-CallIdsPerPartner); the
 * ingestion's insert claims its row first (docs/operations.md, "Monthly partitions of cdrs").
 */
@Entity({ name: 'cdr_call_ids' })
@Index('IDX_cdr_call_ids_start', ['start'])
@Index('IDX_cdr_call_ids_cdr_id', ['cdrId'])
export class CdrCallIdEntity {
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_cdr_call_ids' })
  partnerId!: string;

  @PrimaryColumn({
    name: 'call_id',
    type: 'varchar',
    length: 128,
    primaryKeyConstraintName: 'PK_cdr_call_ids',
  })
  callId!: string;

  @Column({ name: 'cdr_id', type: 'bigint' })
  cdrId!: string;

  @Column({ type: 'timestamptz' })
  start!: Date;
}

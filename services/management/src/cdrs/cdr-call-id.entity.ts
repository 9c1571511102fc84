import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The call_id of every stored record, unpartitioned, so a call is stored once whichever month its
 * `start` falls in. Kept by triggers on "cdrs" (migration 1795462563963-PartitionCdrsByMonth); the
 * ingestion's insert claims its row first (docs/operations.md, "Monthly partitions of cdrs").
 */
@Entity({ name: 'cdr_call_ids' })
@Index('IDX_cdr_call_ids_start', ['start'])
export class CdrCallIdEntity {
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

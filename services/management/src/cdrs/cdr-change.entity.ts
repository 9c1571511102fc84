import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One change of a call record, for the change feed (docs/cdrs.md, Change feed). Mirrors migration
 * 1795600000001-CdrChanges; written by `recordCdrChange` (cdrs/cdr-changes.ts) only.
 */
@Entity({ name: 'cdr_changes' })
@Index('IDX_cdr_changes_feed', ['partnerId', 'txid', 'id'])
export class CdrChangeEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_cdr_changes',
  })
  id!: string;

  /** The writing transaction's `pg_current_xact_id()`. */
  @Column({ type: 'bigint' })
  txid!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @Column({ name: 'cdr_id', type: 'bigint' })
  cdrId!: string;

  /** The record's `start`, so its one monthly partition is read. */
  @Column({ type: 'timestamptz' })
  start!: Date;

  @Column({ type: 'varchar', length: 32 })
  kind!: string;

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt!: Date;
}

import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A call's transcript and classification (docs/call-intelligence.md), redacted before it is written:
 * the unredacted text is never stored. `pending` while queued, `failed` with the reason once the
 * retry schedule ran out.
 */
@Entity({ name: 'transcripts' })
@Check('CHK_transcripts_status', `"status" IN ('pending', 'done', 'failed')`)
@Index('IDX_transcripts_partner', ['partnerId', 'cdrStart'])
export class TranscriptEntity {
  @PrimaryColumn({ name: 'cdr_id', type: 'bigint', primaryKeyConstraintName: 'PK_transcripts' })
  cdrId!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @Column({ name: 'cdr_start', type: 'timestamptz' })
  cdrStart!: Date;

  @Column({ type: 'varchar', length: 8 })
  status!: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  language!: string | null;

  @Column({ name: 'duration_seconds', type: 'numeric', precision: 10, scale: 2, nullable: true })
  durationSeconds!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  model!: string | null;

  @Column({ type: 'text', nullable: true })
  text!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  segments!: unknown;

  @Column({ type: 'varchar', length: 20, nullable: true })
  classification!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  reasons!: unknown;

  @Column({ type: 'jsonb', nullable: true })
  keywords!: unknown;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ name: 'modified', type: 'timestamptz' })
  modified!: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An answered call's recording (docs/call-intelligence.md, Recording answered calls): the provider's
 * reference, kept in the transaction that queues its transcription, and the audio once fetched.
 * A voicemail's audio stays on its call record (`cdrs.recording`).
 */
@Entity({ name: 'call_recordings' })
@Index('IDX_call_recordings_partner', ['partnerId', 'cdrStart'])
export class CallRecordingEntity {
  @PrimaryColumn({ name: 'cdr_id', type: 'bigint', primaryKeyConstraintName: 'PK_call_recordings' })
  cdrId!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @Column({ name: 'cdr_start', type: 'timestamptz' })
  cdrStart!: Date;

  @Column({ name: 'provider_sid', type: 'varchar', length: 64 })
  providerSid!: string;

  @Column({ name: 'provider_url', type: 'varchar', length: 2048 })
  providerUrl!: string;

  /** 2 for a dual-channel recording: caller and answerer apart. */
  @Column({ type: 'smallint', default: 1 })
  channels!: number;

  @Column({ name: 'duration_seconds', type: 'integer', nullable: true })
  durationSeconds!: number | null;

  @Column({ type: 'bytea', nullable: true })
  audio!: Buffer | null;

  @Column({ name: 'content_type', type: 'varchar', length: 64, nullable: true })
  contentType!: string | null;

  @Column({ name: 'fetched_at', type: 'timestamptz', nullable: true })
  fetchedAt!: Date | null;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;
}

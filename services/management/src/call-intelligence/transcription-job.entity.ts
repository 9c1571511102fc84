import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * The transcription queue (docs/call-intelligence.md, The queue): one row per recorded call, written
 * in the transaction that keeps the recording (or its reference), worked off by leases
 * (db/leased-queue.ts): pending / sending (leased) / sent / dead.
 */
@Entity({ name: 'transcription_jobs' })
@Unique('UQ_transcription_jobs_cdr', ['cdrId'])
@Check('CHK_transcription_jobs_status', `"status" IN ('pending', 'sending', 'sent', 'dead')`)
@Check('CHK_transcription_jobs_recording', `"recording" IN ('voicemail', 'conversation')`)
@Index('IDX_transcription_jobs_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('IDX_transcription_jobs_lease', ['lockedUntil'], { where: `"status" = 'sending'` })
@Index('IDX_transcription_jobs_partner', ['partnerId', 'cdrStart'])
export class TranscriptionJobEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_transcription_jobs',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @Column({ name: 'cdr_id', type: 'bigint' })
  cdrId!: string;

  @Column({ name: 'cdr_start', type: 'timestamptz' })
  cdrStart!: Date;

  /** Which recording of the call: the voicemail on the record, or the answered call's (call_recordings). */
  @Column({ type: 'varchar', length: 16 })
  recording!: string;

  @Column({ type: 'varchar', length: 8, default: 'pending' })
  status!: string;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'locked_by', type: 'varchar', length: 200, nullable: true })
  lockedBy!: string | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}

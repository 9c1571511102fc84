import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Mirrors migration 1795462925506-CreateTwilioCalls; written only by TwilioCallsStore. */
@Entity({ name: 'twilio_calls' })
@Index('IDX_twilio_calls_open', ['lastCallback'], { where: '"completed_at" IS NULL' })
export class TwilioCallEntity {
  @PrimaryColumn({
    name: 'call_sid',
    type: 'varchar',
    length: 128,
    primaryKeyConstraintName: 'PK_twilio_calls',
  })
  callSid!: string;

  @Column({ name: 'to_number', type: 'varchar', length: 32, nullable: true })
  toNumber!: string | null;

  @Column({ name: 'from_number', type: 'varchar', length: 64, nullable: true })
  fromNumber!: string | null;

  @Column({ name: 'call_status', type: 'varchar', length: 20, nullable: true })
  callStatus!: string | null;

  @Column({ name: 'call_duration', type: 'integer', nullable: true })
  callDuration!: number | null;

  @Column({ name: 'recording_sid', type: 'varchar', length: 64, nullable: true })
  recordingSid!: string | null;

  @Column({ name: 'recording_url', type: 'varchar', length: 2048, nullable: true })
  recordingUrl!: string | null;

  @Column({ name: 'recording_status', type: 'varchar', length: 20, nullable: true })
  recordingStatus!: string | null;

  @Column({ name: 'recording_duration', type: 'integer', nullable: true })
  recordingDuration!: number | null;

  @Column({ name: 'first_callback', type: 'timestamptz' })
  firstCallback!: Date;

  @Column({ name: 'last_callback', type: 'timestamptz' })
  lastCallback!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'cdr_id', type: 'bigint', nullable: true })
  cdrId!: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  outcome!: string | null;
}

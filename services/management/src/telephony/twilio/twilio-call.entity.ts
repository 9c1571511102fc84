import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Mirrors migrations 1795462925506-CreateTwilioCalls and 1795630000001-ConversationRecordingReference;
 * written only by TwilioCallsStore. `recording_*` is a voicemail's, `conversation_*` an answered call's.
 */
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

  @Column({ name: 'conversation_sid', type: 'varchar', length: 64, nullable: true })
  conversationSid!: string | null;

  @Column({ name: 'conversation_url', type: 'varchar', length: 2048, nullable: true })
  conversationUrl!: string | null;

  @Column({ name: 'conversation_channels', type: 'smallint', nullable: true })
  conversationChannels!: number | null;

  @Column({ name: 'conversation_duration', type: 'integer', nullable: true })
  conversationDuration!: number | null;

  /** The stored record's partner and start, beside `cdr_id`: a late recording is kept with them. */
  @Column({ name: 'partner_id', type: 'bigint', nullable: true })
  partnerId!: string | null;

  @Column({ name: 'cdr_start', type: 'timestamptz', nullable: true })
  cdrStart!: Date | null;
}

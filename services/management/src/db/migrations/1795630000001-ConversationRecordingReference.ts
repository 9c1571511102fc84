import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An answered call's recording reference on the provider call's state (docs/telephony.md,
 * Recording answered calls): its callback may come before or after the call record is stored, so
 * the reference waits here, and the stored record's partner and start are kept beside its id for
 * a recording that arrives after it.
 */
export class ConversationRecordingReference1795630000001 implements MigrationInterface {
  name = 'ConversationRecordingReference1795630000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "twilio_calls"
        ADD COLUMN "conversation_sid" character varying(64),
        ADD COLUMN "conversation_url" character varying(2048),
        ADD COLUMN "conversation_channels" smallint,
        ADD COLUMN "conversation_duration" integer,
        ADD COLUMN "partner_id" bigint,
        ADD COLUMN "cdr_start" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "twilio_calls"
        DROP COLUMN "cdr_start",
        DROP COLUMN "partner_id",
        DROP COLUMN "conversation_duration",
        DROP COLUMN "conversation_channels",
        DROP COLUMN "conversation_url",
        DROP COLUMN "conversation_sid"`);
  }
}

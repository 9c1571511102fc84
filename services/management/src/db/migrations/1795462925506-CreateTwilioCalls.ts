import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the provider's callbacks said about one call, until its call record is stored
 * (docs/telephony.md): the status callback and the recording callback arrive in any order, repeated
 * or late; a call whose callbacks stop is completed by the sweep after a grace period.
 */
export class CreateTwilioCalls1795462925506 implements MigrationInterface {
  name = 'CreateTwilioCalls1795462925506';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "twilio_calls" (
        "call_sid" varchar(128) NOT NULL,
        "to_number" varchar(32),
        "from_number" varchar(64),
        "call_status" varchar(20),
        "call_duration" integer,
        "recording_sid" varchar(64),
        "recording_url" varchar(2048),
        "recording_status" varchar(20),
        "recording_duration" integer,
        "first_callback" timestamptz NOT NULL,
        "last_callback" timestamptz NOT NULL,
        "completed_at" timestamptz,
        "cdr_id" bigint,
        "outcome" varchar(500),
        CONSTRAINT "PK_twilio_calls" PRIMARY KEY ("call_sid")
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_twilio_calls_open" ON "twilio_calls" ("last_callback") WHERE "completed_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "twilio_calls"`);
  }
}

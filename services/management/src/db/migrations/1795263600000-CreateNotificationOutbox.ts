import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateNotificationOutbox1795263600000 implements MigrationInterface {
  name = 'CreateNotificationOutbox1795263600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No foreign key to cdrs: the outbox outlives nothing it points at (CDRs are kept), and the
    // worker reads the recording by id when it builds the e-mail, so the audio is never copied here.
    await queryRunner.query(`
      CREATE TABLE "notification_outbox" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "delivery_key" uuid NOT NULL DEFAULT gen_random_uuid(),
        "channel" varchar(8) NOT NULL,
        "kind" varchar(16) NOT NULL,
        "recipient" varchar(320) NOT NULL,
        "cdr_id" bigint NOT NULL,
        "payload" jsonb NOT NULL,
        "attachment_cdr_id" bigint,
        "status" varchar(8) NOT NULL DEFAULT 'pending',
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" timestamptz NOT NULL DEFAULT now(),
        "last_error" text,
        "locked_by" varchar(200),
        "locked_until" timestamptz,
        "created" timestamptz NOT NULL DEFAULT now(),
        "sent_at" timestamptz,
        CONSTRAINT "PK_notification_outbox" PRIMARY KEY ("id"),
        CONSTRAINT "UQ_notification_outbox_delivery_key" UNIQUE ("delivery_key"),
        CONSTRAINT "CHK_notification_outbox_channel" CHECK ("channel" IN ('email', 'sms')),
        CONSTRAINT "CHK_notification_outbox_kind" CHECK ("kind" IN ('missed_call', 'new_voicemail')),
        CONSTRAINT "CHK_notification_outbox_status" CHECK ("status" IN ('pending', 'sending', 'sent', 'dead', 'logged'))
      )`);
    // Only rows a worker may still take are indexed, so the claim query stays small however many
    // sent rows accumulate.
    await queryRunner.query(
      `CREATE INDEX "IDX_notification_outbox_due" ON "notification_outbox" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_notification_outbox_lease" ON "notification_outbox" ("locked_until") WHERE "status" = 'sending'`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_notification_outbox_cdr" ON "notification_outbox" ("cdr_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_notification_outbox_cdr"`);
    await queryRunner.query(`DROP INDEX "IDX_notification_outbox_lease"`);
    await queryRunner.query(`DROP INDEX "IDX_notification_outbox_due"`);
    await queryRunner.query(`DROP TABLE "notification_outbox"`);
  }
}

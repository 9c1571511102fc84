import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calls become conversions (docs/conversions.md): the click and analytics ids and the partner's
 * outcome on the call record (added on the partitioned parent, so every month's partition has them;
 * null for records stored before), each partner's Google Ads and GA4 settings, and the conversion
 * outbox the export worker delivers from.
 */
export class Conversions1795550000001 implements MigrationInterface {
  name = 'Conversions1795550000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "cdrs"
        ADD "gclid" character varying(150),
        ADD "gbraid" character varying(150),
        ADD "wbraid" character varying(150),
        ADD "ga_client_id" character varying(64),
        ADD "ga_session_id" character varying(20),
        ADD "outcome_status" character varying(16),
        ADD "outcome_value" numeric(18,4),
        ADD "outcome_currency" character varying(3),
        ADD "outcome_note" character varying(1000),
        ADD "outcome_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`
      CREATE TABLE "partner_integrations" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "kind" character varying(16) NOT NULL,
        "settings" jsonb NOT NULL,
        "secrets" jsonb NOT NULL,
        "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_partner_integrations" PRIMARY KEY ("partner_id", "kind"),
        CONSTRAINT "UQ_partner_integrations_id" UNIQUE ("id"),
        CONSTRAINT "CHK_partner_integrations_kind" CHECK ("kind" IN ('google_ads', 'ga4')),
        CONSTRAINT "FK_partner_integrations_partner" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT
      )`);
    // No foreign key to cdrs (partitioned, keyed with its start): a row names its record, and the
    // conversion is built from the stored record when it is sent; a record gone by then is dead.
    // Each row waits in its integration's lane (db/leased-queue.ts, FairShare); a removed
    // integration takes its queue with it.
    await queryRunner.query(`
      CREATE TABLE "conversion_outbox" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "cdr_id" bigint NOT NULL,
        "integration_id" bigint NOT NULL,
        "destination" character varying(16) NOT NULL,
        "order_id" character varying(64) NOT NULL,
        "outcome_status" character varying(16),
        "outcome_value" numeric(18,4),
        "outcome_currency" character varying(3),
        "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "status" character varying(8) NOT NULL DEFAULT 'pending',
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "last_attempt_at" TIMESTAMP WITH TIME ZONE,
        "last_error" text,
        "locked_by" character varying(200),
        "locked_until" TIMESTAMP WITH TIME ZONE,
        "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "sent_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_conversion_outbox" PRIMARY KEY ("id"),
        CONSTRAINT "UQ_conversion_outbox_order" UNIQUE ("partner_id", "destination", "order_id"),
        CONSTRAINT "CHK_conversion_outbox_status" CHECK ("status" IN ('pending', 'sending', 'sent', 'dead')),
        CONSTRAINT "CHK_conversion_outbox_destination" CHECK ("destination" IN ('google_ads', 'ga4')),
        CONSTRAINT "FK_conversion_outbox_integration" FOREIGN KEY ("integration_id") REFERENCES "partner_integrations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_conversion_outbox_due" ON "conversion_outbox" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_conversion_outbox_lease" ON "conversion_outbox" ("locked_until") WHERE "status" = 'sending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_conversion_outbox_cdr" ON "conversion_outbox" ("partner_id", "cdr_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_conversion_outbox_lane" ON "conversion_outbox" ("integration_id", "next_attempt_at") WHERE "status" = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_conversion_outbox_lane"`);
    await queryRunner.query(`DROP INDEX "IDX_conversion_outbox_cdr"`);
    await queryRunner.query(`DROP INDEX "IDX_conversion_outbox_lease"`);
    await queryRunner.query(`DROP INDEX "IDX_conversion_outbox_due"`);
    await queryRunner.query(`DROP TABLE "conversion_outbox"`);
    await queryRunner.query(`DROP TABLE "partner_integrations"`);
    await queryRunner.query(`
      ALTER TABLE "cdrs"
        DROP COLUMN "outcome_at", DROP COLUMN "outcome_note", DROP COLUMN "outcome_currency",
        DROP COLUMN "outcome_value", DROP COLUMN "outcome_status", DROP COLUMN "ga_session_id",
        DROP COLUMN "ga_client_id", DROP COLUMN "wbraid", DROP COLUMN "gbraid", DROP COLUMN "gclid"`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebhooks1795462589143 implements MigrationInterface {
  name = 'CreateWebhooks1795462589143';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhooks" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "url" varchar(2000) NOT NULL,
        "events" text array NOT NULL,
        "secret" varchar(100) NOT NULL,
        "state" varchar(1) NOT NULL DEFAULT '0',
        "created" timestamptz NOT NULL DEFAULT now(),
        "modified" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_webhooks" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_webhooks_state" CHECK ("state" IN ('0', '1')),
        CONSTRAINT "FK_webhooks_partner" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT
      )`);
    await queryRunner.query(`CREATE INDEX "IX_webhooks_partner" ON "webhooks" ("partner_id")`);
    // No foreign key to cdrs or customers: a delivery names its record and the body is rendered
    // from it when sent; a record gone by then makes the delivery dead, with that reason.
    await queryRunner.query(`
      CREATE TABLE "webhook_deliveries" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "message_id" varchar(40) NOT NULL,
        "webhook_id" bigint NOT NULL,
        "partner_id" bigint NOT NULL,
        "event_type" varchar(32) NOT NULL,
        "cdr_id" bigint,
        "customer_id" bigint,
        "occurred_at" timestamptz NOT NULL DEFAULT now(),
        "status" varchar(8) NOT NULL DEFAULT 'pending',
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" timestamptz NOT NULL DEFAULT now(),
        "last_attempt_at" timestamptz,
        "last_status_code" integer,
        "last_error" text,
        "locked_by" varchar(200),
        "locked_until" timestamptz,
        "created" timestamptz NOT NULL DEFAULT now(),
        "sent_at" timestamptz,
        CONSTRAINT "PK_webhook_deliveries" PRIMARY KEY ("id"),
        CONSTRAINT "UQ_webhook_deliveries_message_id" UNIQUE ("message_id"),
        CONSTRAINT "CHK_webhook_deliveries_status" CHECK ("status" IN ('pending', 'sending', 'sent', 'dead')),
        CONSTRAINT "FK_webhook_deliveries_webhook" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE
      )`);
    // Only rows a worker may still take are in the claim indexes, so claims stay small however
    // many sent rows accumulate.
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("webhook_id", "next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_lease" ON "webhook_deliveries" ("locked_until") WHERE "status" = 'sending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_dead" ON "webhook_deliveries" ("created") WHERE "status" = 'dead'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_webhook" ON "webhook_deliveries" ("webhook_id", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_webhook"`);
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_dead"`);
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_lease"`);
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_due"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "IX_webhooks_partner"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
  }
}

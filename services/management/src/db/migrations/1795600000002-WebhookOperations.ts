import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook operations (docs/webhooks.md, Delivery log; Disabled endpoints): every attempt's request
 * and answer kept per delivery; a webhook's first failure since its last success, and state '2'
 * when Trackline disabled it after failing for WEBHOOK_DISABLE_AFTER_SECONDS; the webhook a
 * `webhook.disabled` delivery tells about; the partner's contact address for the e-mail that says so.
 */
export class WebhookOperations1795600000002 implements MigrationInterface {
  name = 'WebhookOperations1795600000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "partners" ADD "contact_email" character varying(150)`);
    await queryRunner.query(`ALTER TABLE "webhooks" ADD "failing_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhooks" ADD "disabled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhooks" DROP CONSTRAINT "CHK_webhooks_state"`);
    await queryRunner.query(
      `ALTER TABLE "webhooks" ADD CONSTRAINT "CHK_webhooks_state" CHECK ("state" IN ('0', '1', '2'))`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "subject_webhook_id" bigint`);
    await queryRunner.query(
      `CREATE TABLE "webhook_delivery_attempts" (
         "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
         "delivery_id" bigint NOT NULL,
         "attempt" integer NOT NULL,
         "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         "duration_ms" integer NOT NULL,
         "url" character varying(2000) NOT NULL,
         "body_bytes" integer NOT NULL,
         "status_code" integer,
         "error" character varying(1000),
         "response_body" text,
         CONSTRAINT "PK_webhook_delivery_attempts" PRIMARY KEY ("id"),
         CONSTRAINT "FK_webhook_delivery_attempts_delivery" FOREIGN KEY ("delivery_id")
           REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION
       )`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_delivery_attempts_delivery" ON "webhook_delivery_attempts" ("delivery_id", "id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" DROP CONSTRAINT "CHK_notification_outbox_kind"`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" ADD CONSTRAINT "CHK_notification_outbox_kind"
         CHECK ("kind" IN ('missed_call', 'new_voicemail', 'monthly_report', 'webhook_disabled'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "notification_outbox" WHERE "kind" = 'webhook_disabled'`);
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" DROP CONSTRAINT "CHK_notification_outbox_kind"`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" ADD CONSTRAINT "CHK_notification_outbox_kind"
         CHECK ("kind" IN ('missed_call', 'new_voicemail', 'monthly_report'))`,
    );
    await queryRunner.query(`DROP TABLE "webhook_delivery_attempts"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "subject_webhook_id"`);
    await queryRunner.query(`UPDATE "webhooks" SET "state" = '1' WHERE "state" = '2'`);
    await queryRunner.query(`ALTER TABLE "webhooks" DROP CONSTRAINT "CHK_webhooks_state"`);
    await queryRunner.query(
      `ALTER TABLE "webhooks" ADD CONSTRAINT "CHK_webhooks_state" CHECK ("state" IN ('0', '1'))`,
    );
    await queryRunner.query(`ALTER TABLE "webhooks" DROP COLUMN "disabled_at"`);
    await queryRunner.query(`ALTER TABLE "webhooks" DROP COLUMN "failing_since"`);
    await queryRunner.query(`ALTER TABLE "partners" DROP COLUMN "contact_email"`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The monthly report e-mail in the notification outbox (docs/reports.md): a row that belongs to
 * no call record (`cdr_id` null), the kind `monthly_report`, and `unique_key`
 * (`monthly_report:<customer_id>:<YYYY-MM>`), unique, so however many schedulers, replicas or
 * operator commands enqueue a customer's month, one row exists and one e-mail is sent.
 */
export class OutboxMonthlyReports1795462932984 implements MigrationInterface {
  name = 'OutboxMonthlyReports1795462932984';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_outbox" ALTER COLUMN "cdr_id" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "notification_outbox" ADD "unique_key" varchar(100)`);
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" ADD CONSTRAINT "UQ_notification_outbox_unique_key" UNIQUE ("unique_key")`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" DROP CONSTRAINT "CHK_notification_outbox_kind"`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" ADD CONSTRAINT "CHK_notification_outbox_kind"
         CHECK ("kind" IN ('missed_call', 'new_voicemail', 'monthly_report'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "notification_outbox" WHERE "kind" = 'monthly_report'`);
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" DROP CONSTRAINT "CHK_notification_outbox_kind"`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" ADD CONSTRAINT "CHK_notification_outbox_kind"
         CHECK ("kind" IN ('missed_call', 'new_voicemail'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_outbox" DROP CONSTRAINT "UQ_notification_outbox_unique_key"`,
    );
    await queryRunner.query(`ALTER TABLE "notification_outbox" DROP COLUMN "unique_key"`);
    await queryRunner.query(`ALTER TABLE "notification_outbox" ALTER COLUMN "cdr_id" SET NOT NULL`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery of a call event keeps the record's `start` beside its id, so the worker reads the
 * record from its one monthly partition in a single statement instead of first asking
 * `cdr_call_ids` for the start (docs/webhooks.md, How it runs). Rows queued before stay NULL and are
 * read the old way.
 */
export class WebhookDeliveryRecordStart1795580000001 implements MigrationInterface {
  name = 'WebhookDeliveryRecordStart1795580000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "cdr_start" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "cdr_start"`);
  }
}

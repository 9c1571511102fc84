import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A queued conversion keeps its call record's `start` beside the record's id, so the export worker
 * reads the record from its one monthly partition in a single statement (docs/conversions.md,
 * Delivery), as webhook deliveries do. Rows queued before stay NULL and are read the old way.
 */
export class ConversionRecordStart1795580000002 implements MigrationInterface {
  name = 'ConversionRecordStart1795580000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversion_outbox" ADD "cdr_start" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversion_outbox" DROP COLUMN "cdr_start"`);
  }
}

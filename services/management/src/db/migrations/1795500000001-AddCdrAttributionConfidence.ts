import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How sure a call record's attribution is and how long its pool binding had existed
 * (docs/cdrs.md, Attribution confidence). Added on the partitioned parent, so every month's
 * partition has them; null for records stored before.
 */
export class AddCdrAttributionConfidence1795500000001 implements MigrationInterface {
  name = 'AddCdrAttributionConfidence1795500000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cdrs" ADD "attribution" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "cdrs" ADD "bound_seconds" integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cdrs" DROP COLUMN "bound_seconds"`);
    await queryRunner.query(`ALTER TABLE "cdrs" DROP COLUMN "attribution"`);
  }
}

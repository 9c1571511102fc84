import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A record found by its id alone (a webhook's payload, a conversion, a partner's `PUT /cdrs/<id>/…`)
 * reads its `start` here first, so the record itself is read from the one monthly partition that
 * holds it: without the start, every partition's index is planned and probed (docs/benchmarks.md,
 * Call records: ingestion and single calls).
 */
export class CdrCallIdsByRecord1795570000001 implements MigrationInterface {
  name = 'CdrCallIdsByRecord1795570000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_cdr_call_ids_cdr_id" ON "cdr_call_ids" ("cdr_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_cdr_call_ids_cdr_id"`);
  }
}

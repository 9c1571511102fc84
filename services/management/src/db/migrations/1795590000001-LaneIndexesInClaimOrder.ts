import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fair claim (db/leased-queue.ts) takes each lane's due rows in `(next_attempt_at, id)` order,
 * up to the lane's free slots. With the pending rows indexed by `(lane, next_attempt_at)` only,
 * Postgres read and sorted every due row of a lane to find its first few, so a claim cost grew with
 * the backlog, and a backlog made the worker slower still (docs/benchmarks.md, Deliveries). With
 * `id` in the index, a lane's probe reads only the rows it takes.
 */
export class LaneIndexesInClaimOrder1795590000001 implements MigrationInterface {
  name = 'LaneIndexesInClaimOrder1795590000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_due"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("webhook_id", "next_attempt_at", "id") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(`DROP INDEX "IDX_conversion_outbox_lane"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_conversion_outbox_lane" ON "conversion_outbox" ("integration_id", "next_attempt_at", "id") WHERE "status" = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_conversion_outbox_lane"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_conversion_outbox_lane" ON "conversion_outbox" ("integration_id", "next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_due"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("webhook_id", "next_attempt_at") WHERE "status" = 'pending'`,
    );
  }
}

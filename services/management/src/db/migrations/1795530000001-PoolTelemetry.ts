import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pool telemetry per partner and hour, rolled up from the allocation script's Redis counters, and
 * the partner's two sizing settings (docs/pool-sizing.md): the target overflow the advisor sizes
 * for, and the recycled share of an hour that raises `pool.exhausted`.
 */
export class PoolTelemetry1795530000001 implements MigrationInterface {
  name = 'PoolTelemetry1795530000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "pool_telemetry_hours" (
        "partner_id" bigint NOT NULL,
        "hour" TIMESTAMP WITH TIME ZONE NOT NULL,
        "sessions" integer NOT NULL DEFAULT 0,
        "issued" integer NOT NULL DEFAULT 0,
        "recycled" integer NOT NULL DEFAULT 0,
        "peak_leased" integer NOT NULL DEFAULT 0,
        "pool_calls" integer NOT NULL DEFAULT 0,
        "closed" boolean NOT NULL DEFAULT false,
        "exhausted_at" TIMESTAMP WITH TIME ZONE,
        "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_pool_telemetry_hours" PRIMARY KEY ("partner_id", "hour")
      )`);
    await queryRunner.query(`
      ALTER TABLE "partners"
        ADD COLUMN "target_overflow" numeric(5,4) NOT NULL DEFAULT 0.01,
        ADD COLUMN "pool_exhausted_share" numeric(5,4) NOT NULL DEFAULT 0.05,
        ADD CONSTRAINT "CHK_partners_target_overflow" CHECK ("target_overflow" > 0 AND "target_overflow" <= 1),
        ADD CONSTRAINT "CHK_partners_pool_exhausted_share" CHECK ("pool_exhausted_share" > 0 AND "pool_exhausted_share" <= 1)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "partners"
        DROP CONSTRAINT "CHK_partners_pool_exhausted_share",
        DROP CONSTRAINT "CHK_partners_target_overflow",
        DROP COLUMN "pool_exhausted_share",
        DROP COLUMN "target_overflow"`);
    await queryRunner.query(`DROP TABLE "pool_telemetry_hours"`);
  }
}

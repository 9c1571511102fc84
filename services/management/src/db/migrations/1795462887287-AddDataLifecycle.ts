import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per partner: how long call records are kept and after how many days the caller's number is masked
 * (docs/privacy.md); and the due time of the daily data lifecycle job, one row per job, which the
 * first replica to find it due claims (docs/operations.md, "Data lifecycle").
 */
export class AddDataLifecycle1795462887287 implements MigrationInterface {
  name = 'AddDataLifecycle1795462887287';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "partners"
        ADD COLUMN "cdr_retention_months" integer NOT NULL DEFAULT 24,
        ADD COLUMN "anum_mask_after_days" integer,
        ADD CONSTRAINT "CHK_partners_cdr_retention_months" CHECK ("cdr_retention_months" BETWEEN 1 AND 1200),
        ADD CONSTRAINT "CHK_partners_anum_mask_after_days" CHECK ("anum_mask_after_days" BETWEEN 1 AND 36500)`);
    await queryRunner.query(`
      CREATE TABLE "data_lifecycle_runs" (
        "job" varchar(64) NOT NULL,
        "next_run_at" timestamptz NOT NULL,
        "last_started_at" timestamptz,
        "last_finished_at" timestamptz,
        "last_result" jsonb,
        CONSTRAINT "PK_data_lifecycle_runs" PRIMARY KEY ("job")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "data_lifecycle_runs"`);
    await queryRunner.query(`
      ALTER TABLE "partners"
        DROP CONSTRAINT "CHK_partners_anum_mask_after_days",
        DROP CONSTRAINT "CHK_partners_cdr_retention_months",
        DROP COLUMN "anum_mask_after_days",
        DROP COLUMN "cdr_retention_months"`);
  }
}

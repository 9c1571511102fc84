import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ingestion stores one call record per statement, and for one row two statement-level triggers
 * (the day counts and the monthly report's quarter-hour buckets), each building a transition
 * table and aggregating it, cost more than the insert itself (docs/benchmarks.md, Call records:
 * ingestion and single calls). One row-level trigger now keeps both rollups on INSERT. UPDATE and
 * DELETE keep their statement-level triggers: retention, masking and erasure change many rows at once.
 *
 * A row-level trigger applies a multi-row INSERT's rows in the statement's order, not in key order;
 * the only multi-row inserts into `cdrs` are bulk loads by a single writer, so two of them never
 * race on the counter rows. Single-row inserts lock one day row, then one bucket row, always in
 * that order.
 */
export class RowLevelCdrRollupInserts1795470000000 implements MigrationInterface {
  name = 'RowLevelCdrRollupInserts1795470000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "cdr_rollups_insert_row"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."customer_id" IS NULL THEN
          RETURN NULL;
        END IF;
        INSERT INTO "cdr_day_counts" ("partner_id", "customer_id", "day", "count")
        VALUES (NEW."partner_id", NEW."customer_id", (NEW."start" AT TIME ZONE 'UTC')::date, 1)
        ON CONFLICT ("partner_id", "customer_id", "day")
          DO UPDATE SET "count" = "cdr_day_counts"."count" + 1;
        INSERT INTO "cdr_report_buckets" ("partner_id", "customer_id", "bucket", "source_id", "calls",
          "answered", "voicemails", "leads", "commission")
        VALUES (
          NEW."partner_id",
          NEW."customer_id",
          date_bin('15 minutes', NEW."start", TIMESTAMPTZ '2000-01-01 00:00:00+00'),
          COALESCE(NEW."source_id", 0),
          1,
          CASE WHEN NEW."answered" THEN 1 ELSE 0 END,
          CASE WHEN NOT NEW."answered" AND NEW."voicemail" AND NEW."recording" IS NOT NULL THEN 1 ELSE 0 END,
          CASE WHEN NEW."commission" IS NOT NULL THEN 1 ELSE 0 END,
          COALESCE(NEW."commission", 0))
        ON CONFLICT ("partner_id", "customer_id", "bucket", "source_id") DO UPDATE SET
          "calls" = "cdr_report_buckets"."calls" + EXCLUDED."calls",
          "answered" = "cdr_report_buckets"."answered" + EXCLUDED."answered",
          "voicemails" = "cdr_report_buckets"."voicemails" + EXCLUDED."voicemails",
          "leads" = "cdr_report_buckets"."leads" + EXCLUDED."leads",
          "commission" = "cdr_report_buckets"."commission" + EXCLUDED."commission";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_day_counts_insert" ON "cdrs"`);
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_report_buckets_insert" ON "cdrs"`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_rollups_insert" AFTER INSERT ON "cdrs"
        FOR EACH ROW EXECUTE FUNCTION "cdr_rollups_insert_row"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_rollups_insert" ON "cdrs"`);
    await queryRunner.query(`DROP FUNCTION "cdr_rollups_insert_row"()`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_day_counts_insert" AFTER INSERT ON "cdrs"
        REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "cdr_day_counts_apply"()`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_report_buckets_insert" AFTER INSERT ON "cdrs"
        REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "cdr_report_buckets_apply"()`);
  }
}

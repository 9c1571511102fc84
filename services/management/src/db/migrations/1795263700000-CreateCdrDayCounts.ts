import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records per customer and UTC day, kept by statement-level triggers on "cdrs" in the writing
 * transaction. GET /statistics/cdrs reads its total from here instead of counting up to a million
 * index entries, and seeks a deep page to the day that holds it instead of skipping every row
 * before it (docs/benchmarks.md, Reads: statistics pages and the monthly report). Triggers rather
 * than application code, so every writer (ingestion, bulk loads, repairs by hand) keeps the counts right.
 */
export class CreateCdrDayCounts1795263700000 implements MigrationInterface {
  name = 'CreateCdrDayCounts1795263700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "cdr_day_counts" (
        "partner_id" bigint NOT NULL,
        "customer_id" bigint NOT NULL,
        "day" date NOT NULL,
        "count" integer NOT NULL,
        CONSTRAINT "PK_cdr_day_counts" PRIMARY KEY ("partner_id", "customer_id", "day")
      )`);
    // One function for the three statements. A transition table exists only for the statements
    // that have it, so each branch names its own. Rows are applied in key order so two concurrent
    // multi-row statements cannot deadlock on the counter rows.
    await queryRunner.query(`
      CREATE FUNCTION "cdr_day_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${applyChanges(`${changesOf('new_rows', 1)}`)};
        ELSIF TG_OP = 'DELETE' THEN
          ${applyChanges(`${changesOf('old_rows', -1)}`)};
        ELSE
          ${applyChanges(`${changesOf('new_rows', 1)} UNION ALL ${changesOf('old_rows', -1)}`)};
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_day_counts_insert" AFTER INSERT ON "cdrs"
        REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "cdr_day_counts_apply"()`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_day_counts_update" AFTER UPDATE ON "cdrs"
        REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
        FOR EACH STATEMENT EXECUTE FUNCTION "cdr_day_counts_apply"()`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_day_counts_delete" AFTER DELETE ON "cdrs"
        REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "cdr_day_counts_apply"()`);
    await queryRunner.query(`
      INSERT INTO "cdr_day_counts" ("partner_id", "customer_id", "day", "count")
      SELECT "partner_id", "customer_id", ("start" AT TIME ZONE 'UTC')::date, count(*)
        FROM "cdrs" WHERE "customer_id" IS NOT NULL
       GROUP BY 1, 2, 3`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_day_counts_delete" ON "cdrs"`);
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_day_counts_update" ON "cdrs"`);
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_day_counts_insert" ON "cdrs"`);
    await queryRunner.query(`DROP FUNCTION "cdr_day_counts_apply"()`);
    await queryRunner.query(`DROP TABLE "cdr_day_counts"`);
  }
}

function changesOf(table: string, delta: number): string {
  return `SELECT "partner_id", "customer_id", ("start" AT TIME ZONE 'UTC')::date AS "day", ${delta} AS "delta"
            FROM "${table}" WHERE "customer_id" IS NOT NULL`;
}

function applyChanges(changes: string): string {
  return `INSERT INTO "cdr_day_counts" ("partner_id", "customer_id", "day", "count")
          SELECT "partner_id", "customer_id", "day", sum("delta")::integer FROM (${changes}) AS "changes"
           GROUP BY "partner_id", "customer_id", "day"
          HAVING sum("delta") <> 0
           ORDER BY "partner_id", "customer_id", "day"
          ON CONFLICT ("partner_id", "customer_id", "day")
            DO UPDATE SET "count" = "cdr_day_counts"."count" + EXCLUDED."count"`;
}

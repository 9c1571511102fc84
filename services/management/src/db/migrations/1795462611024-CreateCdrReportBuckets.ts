import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Call figures per customer, source and quarter hour (UTC) of `start`, kept by statement-level
 * triggers on "cdrs" in the writing transaction, like "cdr_day_counts". The monthly report
 * (docs/reports.md) sums at most 2,980 buckets per source instead of reading every call of the
 * month. Quarter hours because every time zone in use is offset from UTC by a multiple of 15
 * minutes, so each bucket lies wholly inside one local day of any partner, whatever its zone is
 * now or later. Every writer (ingestion, bulk loads, erasure, retention) keeps the figures right.
 */
export class CreateCdrReportBuckets1795462611024 implements MigrationInterface {
  name = 'CreateCdrReportBuckets1795462611024';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "cdr_report_buckets" (
        "partner_id" bigint NOT NULL,
        "customer_id" bigint NOT NULL,
        "bucket" timestamptz NOT NULL,
        "source_id" bigint NOT NULL,
        "calls" integer NOT NULL,
        "answered" integer NOT NULL,
        "voicemails" integer NOT NULL,
        "leads" integer NOT NULL,
        "commission" numeric(14,2) NOT NULL,
        CONSTRAINT "PK_cdr_report_buckets" PRIMARY KEY ("partner_id", "customer_id", "bucket", "source_id")
      )`);
    // One function for the three statements; each branch names the transition tables it has. Rows
    // are applied in key order so two concurrent multi-row statements cannot deadlock.
    await queryRunner.query(`
      CREATE FUNCTION "cdr_report_buckets_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${applyChanges(changesOf('new_rows', 1))};
        ELSIF TG_OP = 'DELETE' THEN
          ${applyChanges(changesOf('old_rows', -1))};
        ELSE
          ${applyChanges(`${changesOf('new_rows', 1)} UNION ALL ${changesOf('old_rows', -1)}`)};
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_report_buckets_insert" AFTER INSERT ON "cdrs"
        REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "cdr_report_buckets_apply"()`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_report_buckets_update" AFTER UPDATE ON "cdrs"
        REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
        FOR EACH STATEMENT EXECUTE FUNCTION "cdr_report_buckets_apply"()`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_report_buckets_delete" AFTER DELETE ON "cdrs"
        REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "cdr_report_buckets_apply"()`);
    await queryRunner.query(`
      INSERT INTO "cdr_report_buckets" ("partner_id", "customer_id", "bucket", "source_id", "calls",
        "answered", "voicemails", "leads", "commission")
      SELECT "partner_id", "customer_id", "bucket", "source_id", sum("calls"), sum("answered"),
             sum("voicemails"), sum("leads"), sum("commission")
        FROM (${changesOf('cdrs', 1)}) AS "existing"
       GROUP BY 1, 2, 3, 4`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_report_buckets_delete" ON "cdrs"`);
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_report_buckets_update" ON "cdrs"`);
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_report_buckets_insert" ON "cdrs"`);
    await queryRunner.query(`DROP FUNCTION "cdr_report_buckets_apply"()`);
    await queryRunner.query(`DROP TABLE "cdr_report_buckets"`);
  }
}

/**
 * One row of figures per call, signed. A voicemail is an unanswered call that left a recording;
 * every other unanswered call is missed (docs/notifications.md draws the same line), so calls =
 * answered + missed + voicemails. A lead is a call that earned a commission.
 */
function changesOf(table: string, sign: 1 | -1): string {
  return `SELECT "partner_id", "customer_id",
                 date_bin('15 minutes', "start", TIMESTAMPTZ '2000-01-01 00:00:00+00') AS "bucket",
                 COALESCE("source_id", 0) AS "source_id",
                 ${sign} AS "calls",
                 CASE WHEN "answered" THEN ${sign} ELSE 0 END AS "answered",
                 CASE WHEN NOT "answered" AND "voicemail" AND "recording" IS NOT NULL THEN ${sign} ELSE 0 END
                   AS "voicemails",
                 CASE WHEN "commission" IS NOT NULL THEN ${sign} ELSE 0 END AS "leads",
                 ${sign} * COALESCE("commission", 0) AS "commission"
            FROM "${table}" WHERE "customer_id" IS NOT NULL`;
}

function applyChanges(changes: string): string {
  return `INSERT INTO "cdr_report_buckets" ("partner_id", "customer_id", "bucket", "source_id", "calls",
            "answered", "voicemails", "leads", "commission")
          SELECT "partner_id", "customer_id", "bucket", "source_id", sum("calls")::integer,
                 sum("answered")::integer, sum("voicemails")::integer, sum("leads")::integer, sum("commission")
            FROM (${changes}) AS "changes"
           GROUP BY "partner_id", "customer_id", "bucket", "source_id"
          HAVING sum("calls") <> 0 OR sum("answered") <> 0 OR sum("voicemails") <> 0 OR sum("leads") <> 0
              OR sum("commission") <> 0
           ORDER BY "partner_id", "customer_id", "bucket", "source_id"
          ON CONFLICT ("partner_id", "customer_id", "bucket", "source_id") DO UPDATE SET
            "calls" = "cdr_report_buckets"."calls" + EXCLUDED."calls",
            "answered" = "cdr_report_buckets"."answered" + EXCLUDED."answered",
            "voicemails" = "cdr_report_buckets"."voicemails" + EXCLUDED."voicemails",
            "leads" = "cdr_report_buckets"."leads" + EXCLUDED."leads",
            "commission" = "cdr_report_buckets"."commission" + EXCLUDED."commission"`;
}

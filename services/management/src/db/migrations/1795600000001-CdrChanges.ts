import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The call records' change feed (docs/cdrs.md, Change feed): one row per change of a record,
 * written in the transaction that made it. `txid` is that transaction's `pg_current_xact_id()`
 * (an xid8, held as bigint); the reader returns only rows whose `txid` is below the oldest
 * transaction still running, so a transaction that commits late is never passed over. The feed
 * reads a partner's rows in `(txid, id)` order; retention deletes from the oldest `id`.
 */
export class CdrChanges1795600000001 implements MigrationInterface {
  name = 'CdrChanges1795600000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "cdr_changes" (
         "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
         "txid" bigint NOT NULL,
         "partner_id" bigint NOT NULL,
         "cdr_id" bigint NOT NULL,
         "start" TIMESTAMP WITH TIME ZONE NOT NULL,
         "kind" character varying(32) NOT NULL,
         "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         CONSTRAINT "PK_cdr_changes" PRIMARY KEY ("id")
       )`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_cdr_changes_feed" ON "cdr_changes" ("partner_id", "txid", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "cdr_changes"`);
  }
}

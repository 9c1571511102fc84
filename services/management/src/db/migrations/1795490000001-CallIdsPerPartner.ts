import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A call record's idempotency key is (partner, call_id), not call_id alone (docs/cdrs.md,
 * "Idempotency"): two partners' switches may send the same call id, and each call is its partner's.
 * "cdr_call_ids" gets the record's partner and its primary key becomes ("partner_id", "call_id");
 * the trigger that keeps it right for every writer matches on both.
 */
export class CallIdsPerPartner1795490000001 implements MigrationInterface {
  name = 'CallIdsPerPartner1795490000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`LOCK TABLE "cdrs" IN SHARE MODE`);
    await queryRunner.query(`ALTER TABLE "cdr_call_ids" ADD COLUMN "partner_id" bigint`);
    await queryRunner.query(`
      UPDATE "cdr_call_ids" k SET "partner_id" = c."partner_id"
        FROM "cdrs" c WHERE c."id" = k."cdr_id" AND c."start" = k."start"`);
    // A claim without its record holds a call id for nothing (the trigger removes it with the record).
    await queryRunner.query(`DELETE FROM "cdr_call_ids" WHERE "partner_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "cdr_call_ids" ALTER COLUMN "partner_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "cdr_call_ids" DROP CONSTRAINT "PK_cdr_call_ids"`);
    await queryRunner.query(
      `ALTER TABLE "cdr_call_ids" ADD CONSTRAINT "PK_cdr_call_ids" PRIMARY KEY ("partner_id", "call_id")`,
    );
    await queryRunner.query(applyFunction(['"partner_id"', '"call_id"']));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`LOCK TABLE "cdrs" IN SHARE MODE`);
    const shared = (await queryRunner.query(
      `SELECT "call_id" FROM "cdr_call_ids" GROUP BY "call_id" HAVING count(*) > 1 LIMIT 1`,
    )) as Array<{ call_id: string }>;
    if (shared.length > 0)
      throw new Error(
        `call id ${shared[0]!.call_id} is held by records of two partners; one global key cannot hold both`,
      );
    await queryRunner.query(`ALTER TABLE "cdr_call_ids" DROP CONSTRAINT "PK_cdr_call_ids"`);
    await queryRunner.query(`ALTER TABLE "cdr_call_ids" DROP COLUMN "partner_id"`);
    await queryRunner.query(
      `ALTER TABLE "cdr_call_ids" ADD CONSTRAINT "PK_cdr_call_ids" PRIMARY KEY ("call_id")`,
    );
    await queryRunner.query(applyFunction(['"call_id"']));
  }
}

/**
 * The trigger function of migration 1795462563963-PartitionCdrsByMonth, keyed by `key`: a record
 * whose key another record holds fails its statement, as a unique index would.
 */
function applyFunction(key: string[]): string {
  const columns = key.join(', ');
  const same = key.map((column) => `c.${column} = n.${column}`).join(' AND ');
  const gone = key.map((column) => `c.${column} = o.${column}`).join(' AND ');
  return `
    CREATE OR REPLACE FUNCTION "cdr_call_ids_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO "cdr_call_ids" (${columns}, "cdr_id", "start")
        SELECT ${columns}, "id", "start" FROM "new_rows" ORDER BY ${columns}
        ON CONFLICT (${columns}) DO NOTHING;
        IF EXISTS (SELECT 1 FROM "new_rows" n JOIN "cdr_call_ids" c ON ${same}
                    WHERE c."cdr_id" <> n."id" OR c."start" <> n."start") THEN
          RAISE EXCEPTION 'duplicate key value violates unique constraint "UQ_cdrs_call_id"'
            USING ERRCODE = 'unique_violation', CONSTRAINT = 'UQ_cdrs_call_id';
        END IF;
      ELSE
        DELETE FROM "cdr_call_ids" c USING "old_rows" o WHERE ${gone} AND c."cdr_id" = o."id";
      END IF;
      RETURN NULL;
    END $$`;
}

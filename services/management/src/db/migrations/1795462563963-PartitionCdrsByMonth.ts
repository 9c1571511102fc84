import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `cdrs` partitioned by UTC month of `start` (docs/operations.md, "Monthly partitions of cdrs").
 *
 * A unique key on a partitioned table must contain the partition key, so `call_id` idempotency moves
 * to the unpartitioned "cdr_call_ids" (one narrow row per record, kept by a trigger for every writer)
 * and the primary key becomes ("id", "start"). The conversion copies the rows under an exclusive lock:
 * the path for small and development databases; docs/operations.md describes the live path.
 *
 * Indexes, foreign keys and triggers are carried over from whatever the table has when this runs
 * (read from the catalog), so columns, indexes or triggers added to "cdrs" by other migrations survive
 * the conversion both ways. The day-count triggers are recreated only after the copy, so the counts
 * already kept are not doubled.
 */
export class PartitionCdrsByMonth1795462563963 implements MigrationInterface {
  name = 'PartitionCdrsByMonth1795462563963';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`LOCK TABLE "cdrs" IN ACCESS EXCLUSIVE MODE`);
    await setAside(queryRunner, 'cdrs_unpartitioned');
    const carried = await carriedOver(queryRunner, 'cdrs_unpartitioned', [
      'PK_cdrs_unpartitioned',
      'UQ_cdrs_call_id',
    ]);

    await queryRunner.query(`
      CREATE TABLE "cdrs" (LIKE "cdrs_unpartitioned"
        INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING GENERATED INCLUDING CONSTRAINTS INCLUDING STORAGE
        INCLUDING COMMENTS)
      PARTITION BY RANGE ("start")`);
    await queryRunner.query(`ALTER TABLE "cdrs" ADD CONSTRAINT "PK_cdrs" PRIMARY KEY ("id", "start")`);
    for (const foreignKey of carried.foreignKeys) await queryRunner.query(`ALTER TABLE "cdrs" ${foreignKey}`);

    // One partition per month from the oldest record (at most ten years back: a switch with a wrong
    // clock must not make hundreds) to three months ahead, and the default for the rest.
    const [range] = (await queryRunner.query(`
      SELECT to_char(CASE WHEN min("start") IS NOT NULL THEN
                       greatest(date_trunc('month', min("start") AT TIME ZONE 'UTC'),
                                date_trunc('month', now() AT TIME ZONE 'UTC') - interval '120 months') END,
                     'YYYY-MM-DD') AS "first",
             to_char(date_trunc('month', now() AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS "current"
        FROM "cdrs_unpartitioned"`)) as Array<{ first: string | null; current: string }>;
    const current = new Date(`${range!.current}T00:00:00Z`);
    const first = range!.first === null ? current : new Date(`${range!.first}T00:00:00Z`);
    for (let month = first; month <= addMonths(current, 3); month = addMonths(month, 1)) {
      const name = `cdrs_${month.toISOString().slice(0, 7).replace('-', '_')}`;
      await queryRunner.query(
        `CREATE TABLE "${name}" PARTITION OF "cdrs" FOR VALUES FROM ('${isoDay(month)}') TO ('${isoDay(addMonths(month, 1))}')`,
      );
    }
    await queryRunner.query(`CREATE TABLE "cdrs_default" PARTITION OF "cdrs" DEFAULT`);

    await queryRunner.query(`
      CREATE TABLE "cdr_call_ids" (
        "call_id" varchar(128) NOT NULL,
        "cdr_id" bigint NOT NULL,
        "start" timestamptz NOT NULL,
        CONSTRAINT "PK_cdr_call_ids" PRIMARY KEY ("call_id")
      )`);
    // Dropping a month removes its call ids by range.
    await queryRunner.query(`CREATE INDEX "IDX_cdr_call_ids_start" ON "cdr_call_ids" ("start")`);
    await queryRunner.query(`
      INSERT INTO "cdr_call_ids" ("call_id", "cdr_id", "start") SELECT "call_id", "id", "start" FROM "cdrs_unpartitioned"`);

    await queryRunner.query(`INSERT INTO "cdrs" OVERRIDING SYSTEM VALUE SELECT * FROM "cdrs_unpartitioned"`);
    await continueSequence(queryRunner, 'cdrs_unpartitioned', 'cdrs');
    await queryRunner.query(`DROP TABLE "cdrs_unpartitioned"`);
    await recreate(queryRunner, carried, 'cdrs_unpartitioned');

    // Every writer (ingestion, bulk loads, repairs) keeps "cdr_call_ids" right: a record whose call id
    // another record holds fails its statement, as the unique index did. Ingestion claims the id first
    // (TypeormCdrsStore.insert), so the trigger finds its own row there.
    await queryRunner.query(`
      CREATE FUNCTION "cdr_call_ids_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO "cdr_call_ids" ("call_id", "cdr_id", "start")
          SELECT "call_id", "id", "start" FROM "new_rows" ORDER BY "call_id"
          ON CONFLICT ("call_id") DO NOTHING;
          IF EXISTS (SELECT 1 FROM "new_rows" n JOIN "cdr_call_ids" c ON c."call_id" = n."call_id"
                      WHERE c."cdr_id" <> n."id" OR c."start" <> n."start") THEN
            RAISE EXCEPTION 'duplicate key value violates unique constraint "UQ_cdrs_call_id"'
              USING ERRCODE = 'unique_violation', CONSTRAINT = 'UQ_cdrs_call_id';
          END IF;
        ELSE
          DELETE FROM "cdr_call_ids" c USING "old_rows" o WHERE c."call_id" = o."call_id" AND c."cdr_id" = o."id";
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_call_ids_insert" AFTER INSERT ON "cdrs"
        REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "cdr_call_ids_apply"()`);
    await queryRunner.query(`
      CREATE TRIGGER "TRG_cdrs_call_ids_delete" AFTER DELETE ON "cdrs"
        REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "cdr_call_ids_apply"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`LOCK TABLE "cdrs" IN ACCESS EXCLUSIVE MODE`);
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_call_ids_delete" ON "cdrs"`);
    await queryRunner.query(`DROP TRIGGER "TRG_cdrs_call_ids_insert" ON "cdrs"`);
    await queryRunner.query(`DROP FUNCTION "cdr_call_ids_apply"()`);
    await setAside(queryRunner, 'cdrs_partitioned');
    const carried = await carriedOver(queryRunner, 'cdrs_partitioned', ['PK_cdrs_partitioned']);

    await queryRunner.query(`
      CREATE TABLE "cdrs" (LIKE "cdrs_partitioned"
        INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING GENERATED INCLUDING CONSTRAINTS INCLUDING STORAGE
        INCLUDING COMMENTS)`);
    await queryRunner.query(`ALTER TABLE "cdrs" ADD CONSTRAINT "PK_cdrs" PRIMARY KEY ("id")`);
    for (const foreignKey of carried.foreignKeys) await queryRunner.query(`ALTER TABLE "cdrs" ${foreignKey}`);
    await queryRunner.query(
      `INSERT INTO "cdrs" OVERRIDING SYSTEM VALUE SELECT * FROM "cdrs_partitioned" ORDER BY "id"`,
    );
    await continueSequence(queryRunner, 'cdrs_partitioned', 'cdrs');
    await queryRunner.query(`DROP TABLE "cdrs_partitioned"`);
    await queryRunner.query(`DROP TABLE "cdr_call_ids"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_cdrs_call_id" ON "cdrs" ("call_id")`);
    await recreate(queryRunner, carried, 'cdrs_partitioned');
  }
}

interface CarriedOver {
  indexes: string[];
  triggers: string[];
  foreignKeys: string[];
}

/** Renames "cdrs", its primary key and its identity sequence out of the way of the new table. */
async function setAside(queryRunner: QueryRunner, name: string): Promise<void> {
  const [sequence] = (await queryRunner.query(
    `SELECT pg_get_serial_sequence('"cdrs"', 'id') AS "name"`,
  )) as Array<{ name: string }>;
  await queryRunner.query(`ALTER TABLE "cdrs" RENAME TO "${name}"`);
  await queryRunner.query(`ALTER TABLE "${name}" RENAME CONSTRAINT "PK_cdrs" TO "PK_${name}"`);
  await queryRunner.query(`ALTER SEQUENCE ${sequence!.name} RENAME TO "${name}_id_seq"`);
}

/** The table's own indexes (not the skipped ones), its user triggers and foreign keys, as SQL. */
async function carriedOver(queryRunner: QueryRunner, table: string, skipped: string[]): Promise<CarriedOver> {
  const indexes = (await queryRunner.query(
    `SELECT pg_get_indexdef(i."indexrelid") AS "sql" FROM pg_index i JOIN pg_class c ON c."oid" = i."indexrelid"
      WHERE i."indrelid" = $1::regclass AND NOT (c."relname" = ANY($2::text[])) ORDER BY c."relname"`,
    [`"${table}"`, skipped],
  )) as Array<{ sql: string }>;
  const triggers = (await queryRunner.query(
    `SELECT pg_get_triggerdef("oid") AS "sql" FROM pg_trigger
      WHERE "tgrelid" = $1::regclass AND NOT "tgisinternal" ORDER BY "tgname"`,
    [`"${table}"`],
  )) as Array<{ sql: string }>;
  const foreignKeys = (await queryRunner.query(
    `SELECT format('ADD CONSTRAINT %I %s', "conname", pg_get_constraintdef("oid")) AS "sql" FROM pg_constraint
      WHERE "conrelid" = $1::regclass AND "contype" = 'f' ORDER BY "conname"`,
    [`"${table}"`],
  )) as Array<{ sql: string }>;
  return {
    indexes: indexes.map((row) => row.sql),
    triggers: triggers.map((row) => row.sql),
    foreignKeys: foreignKeys.map((row) => row.sql),
  };
}

/** Runs the old table's index and trigger definitions against the new "cdrs". */
async function recreate(queryRunner: QueryRunner, carried: CarriedOver, oldName: string): Promise<void> {
  const onOld = new RegExp(` ON (ONLY )?(\\S+\\.)?"?${oldName}"? `);
  for (const sql of [...carried.indexes, ...carried.triggers])
    await queryRunner.query(sql.replace(onOld, ' ON "cdrs" '));
}

/** The new identity continues where the old one stopped, so no id is ever given twice. */
async function continueSequence(queryRunner: QueryRunner, oldTable: string, newTable: string): Promise<void> {
  const [row] = (await queryRunner.query(
    `SELECT pg_get_serial_sequence($1, 'id') AS "old", pg_get_serial_sequence($2, 'id') AS "new"`,
    [`"${oldTable}"`, `"${newTable}"`],
  )) as Array<{ old: string; new: string }>;
  await queryRunner.query(`SELECT setval($1, "last_value", "is_called") FROM ${row!.old}`, [row!.new]);
}

function addMonths(month: Date, count: number): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + count, 1));
}

function isoDay(day: Date): string {
  return day.toISOString().slice(0, 10);
}

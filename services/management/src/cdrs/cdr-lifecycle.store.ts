import type { DataSource } from 'typeorm';
import { recordCdrChange, recordCdrChangesOf, type CdrChange } from './cdr-changes';
import type { CdrMonth } from './cdr-partitions.store';
import { maskStoredAnumSql, STORED_ANUM_KEPT } from './stored-anum-mask';

export interface RemovedRecords {
  records: number;
  /** Of those records, how many held a recording (deleted with them). */
  recordings: number;
}

export interface ErasedCaller extends RemovedRecords {
  /** The records whose number was masked, and their call ids (for the attributions in Redis). */
  cdrIds: string[];
  callIds: string[];
  /** Records (of other callers) whose `cnum` was the number. */
  cnumsMasked: number;
}

type Row = Record<string, unknown>;

/** Batches keep each delete's transaction and its trigger work small on a big table. */
const BATCH = 10_000;

/**
 * Retention, masking and erasure on "cdrs" (docs/privacy.md). Row deletes go through the parent,
 * so the triggers keep "cdr_day_counts" and "cdr_call_ids" right; a dropped month fires no
 * trigger, so its counts and call ids are removed here by range.
 */
export class CdrLifecycleStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Drops the whole month, in one transaction with its day counts and call ids. */
  async dropMonth(month: CdrMonth): Promise<RemovedRecords> {
    return this.dataSource.transaction(async (manager) => {
      const [{ exists }] = (await manager.query(`SELECT to_regclass($1) IS NOT NULL AS "exists"`, [
        `"${month.name}"`,
      ])) as Array<{ exists: boolean }>;
      if (!exists) return { records: 0, recordings: 0 };
      const [counts] = (await manager.query(
        `SELECT count(*)::int AS "records", count(*) FILTER (WHERE "recording" IS NOT NULL)::int AS "recordings"
           FROM "${month.name}"`,
      )) as RemovedRecords[];
      // Tombstones for the feed (docs/cdrs.md, Change feed), in the drop's transaction, in one
      // statement: a month may hold millions of records.
      await recordCdrChangesOf(manager, 'deleted', `SELECT "partner_id", "id", "start" FROM "${month.name}"`);
      await manager.query(`DELETE FROM "cdr_day_counts" WHERE "day" >= $1::date AND "day" < $2::date`, [
        isoDay(month.from),
        isoDay(month.to),
      ]);
      await manager.query(`DELETE FROM "cdr_call_ids" WHERE "start" >= $1 AND "start" < $2`, [
        month.from,
        month.to,
      ]);
      await manager.query(`DROP TABLE "${month.name}"`);
      return counts!;
    });
  }

  /** Deletes the partner's records that started before `before`. */
  async deleteBefore(partnerId: string, before: Date): Promise<RemovedRecords> {
    const total: RemovedRecords = { records: 0, recordings: 0 };
    for (;;) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const rows = (await manager.query(
          `WITH "doomed" AS (
             SELECT "id", "start" FROM "cdrs" WHERE "partner_id" = $1 AND "start" < $2 LIMIT $3
           )
           DELETE FROM "cdrs" c USING "doomed" d WHERE c."id" = d."id" AND c."start" = d."start"
           RETURNING c."id"::text AS "id", c."start", c."recording" IS NOT NULL AS "had_recording"`,
          [partnerId, before, BATCH],
        )) as Row[];
        const gone = returnedRows(rows);
        await recordCdrChange(
          manager,
          gone.map((row) => changeOfRow(partnerId, row, 'deleted')),
        );
        return {
          records: gone.length,
          recordings: gone.filter((row) => row.had_recording === true).length,
        };
      });
      total.records += batch.records;
      total.recordings += batch.recordings;
      if (batch.records < BATCH) return total;
    }
  }

  /** Masks the caller's number in the partner's records started in [from, before) not masked yet. */
  async maskBetween(partnerId: string, from: Date, before: Date): Promise<number> {
    let masked = 0;
    for (;;) {
      const count = await this.dataSource.transaction(async (manager) => {
        const rows = (await manager.query(
          `WITH "due" AS (
             SELECT "id", "start" FROM "cdrs"
              WHERE "partner_id" = $1 AND "start" >= $2 AND "start" < $3 AND strpos("anum", 'x') = 0
                AND length("anum") > ${STORED_ANUM_KEPT} LIMIT $4
           )
           UPDATE "cdrs" c SET "anum" = ${maskStoredAnumSql('c."anum"')}
             FROM "due" d WHERE c."id" = d."id" AND c."start" = d."start"
           RETURNING c."id"::text AS "id", c."start"`,
          [partnerId, from, before, BATCH],
        )) as Row[];
        const changed = returnedRows(rows);
        await recordCdrChange(
          manager,
          changed.map((row) => changeOfRow(partnerId, row, 'masked')),
        );
        return changed.length;
      });
      masked += count;
      if (count < BATCH) return masked;
    }
  }

  /** The partner's records whose caller has one of these numbers. */
  async findCaller(
    partnerId: string,
    anums: readonly string[],
  ): Promise<{ cdrIds: string[]; callIds: string[] }> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT "id"::text AS "id", "call_id" FROM "cdrs" WHERE "partner_id" = $1 AND "anum" = ANY($2::varchar[])`,
      [partnerId, anums],
    );
    return { cdrIds: rows.map((row) => row.id as string), callIds: rows.map((row) => row.call_id as string) };
  }

  /**
   * Sets the caller of every record of the partner whose caller it is (any of the spellings given) to
   * `masked`, one form whatever the spelling, and deletes their recordings; a `cnum` with the number
   * becomes `masked` as well.
   */
  async eraseCaller(partnerId: string, anums: readonly string[], masked: string): Promise<ErasedCaller> {
    // The number as another record's `cnum` is masked too; that record's recording is another
    // caller's voice and stays.
    return this.dataSource.transaction(async (manager) => {
      const cnumRows = returnedRows(
        (await manager.query(
          `UPDATE "cdrs" SET "cnum" = $3 WHERE "partner_id" = $1 AND "cnum" = ANY($2::varchar[])
           RETURNING "id"::text AS "id", "start"`,
          [partnerId, anums, masked],
        )) as Row[],
      );
      const rows: Row[] = await manager.query(
        `WITH "hit" AS (
           SELECT "id", "start", "call_id", "recording" IS NOT NULL AS "had_recording" FROM "cdrs"
            WHERE "partner_id" = $1 AND "anum" = ANY($2::varchar[])
         ), "changed" AS (
           UPDATE "cdrs" c SET "anum" = $3, "recording" = NULL
             FROM "hit" h WHERE c."id" = h."id" AND c."start" = h."start"
           RETURNING c."id"
         )
         SELECT h."id"::text AS "id", h."start", h."call_id", h."had_recording" FROM "hit" h JOIN "changed" USING ("id")`,
        [partnerId, anums, masked],
      );
      // One change per record, whether its caller or its cnum (or both) was the number.
      const erased = new Map([...cnumRows, ...rows].map((row) => [row.id as string, row]));
      await recordCdrChange(
        manager,
        [...erased.values()].map((row) => changeOfRow(partnerId, row, 'erased')),
      );
      return erasedCaller(rows, cnumRows.length);
    });
  }
}

function erasedCaller(rows: Row[], cnums: number): ErasedCaller {
  return {
    records: rows.length,
    cnumsMasked: cnums,
    recordings: rows.filter((row) => row.had_recording === true).length,
    cdrIds: rows.map((row) => row.id as string),
    callIds: rows.map((row) => row.call_id as string),
  };
}

function changeOfRow(partnerId: string, row: Row, kind: CdrChange['kind']): CdrChange {
  return { partnerId, cdrId: row.id as string, start: row.start as Date, kind };
}

/** TypeORM answers an UPDATE or DELETE … RETURNING as [rows, count]. */
function returnedRows(result: Row[]): Row[] {
  return Array.isArray(result[0]) ? (result[0] as Row[]) : result;
}

function isoDay(day: Date): string {
  return day.toISOString().slice(0, 10);
}

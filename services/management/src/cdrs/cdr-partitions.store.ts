import type { DataSource, EntityManager } from 'typeorm';
import { withMigrationLock } from '../db/migration-lock';

/** One monthly partition of "cdrs": [from, to) in UTC. */
export interface CdrMonth {
  name: string;
  from: Date;
  to: Date;
}

export interface EnsuredPartitions {
  /** Partitions created by this call, oldest first. */
  created: string[];
  /** Records moved out of the default partition into a month created for them. */
  moved: number;
  /** Records left in the default partition (outside every month that exists). */
  defaultRows: number;
}

type Row = Record<string, unknown>;
const MONTH_NAME = /^cdrs_(\d{4})_(\d{2})$/;

/**
 * The monthly partitions of "cdrs" (docs/operations.md, "Monthly partitions of cdrs"). Creating a
 * month locks the parent briefly, so only missing months are created; the check itself takes no lock.
 */
export class CdrPartitionsStore {
  constructor(private readonly dataSource: DataSource) {}

  /** The months that exist, oldest first (the default partition is not one). */
  async months(): Promise<CdrMonth[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT c."relname" FROM pg_inherits i JOIN pg_class c ON c."oid" = i."inhrelid"
        WHERE i."inhparent" = '"cdrs"'::regclass`,
    );
    return rows
      .map((row) => monthOf(row.relname as string))
      .filter((month): month is CdrMonth => month !== null)
      .sort((a, b) => a.from.getTime() - b.from.getTime());
  }

  /**
   * Creates the months from the one holding `now` to `monthsAhead` after it that are missing, under
   * the migration lock. Records already caught by the default partition for such a month are moved
   * into it in the same transaction (Postgres refuses the month otherwise); they leave and re-enter
   * through the parent, so the day counts and call ids stay as they were.
   */
  ensure(now: Date, monthsAhead: number): Promise<EnsuredPartitions> {
    return this.ensureMonths(now, addMonths(monthStart(now), monthsAhead));
  }

  /** The same for every month from the one holding `from` to the one holding `until`. */
  async ensureMonths(from: Date, until: Date): Promise<EnsuredPartitions> {
    const wanted: CdrMonth[] = [];
    for (let month = monthStart(from); month <= until; month = addMonths(month, 1))
      wanted.push(cdrMonth(month));
    const existing = new Set((await this.months()).map((month) => month.name));
    const missing = wanted.filter((month) => !existing.has(month.name));
    const created: string[] = [];
    let moved = 0;
    if (missing.length > 0) {
      await withMigrationLock(this.dataSource, async () => {
        for (const month of missing) {
          const result = await this.dataSource.transaction((manager) => createMonth(manager, month));
          if (result.created) created.push(month.name);
          moved += result.moved;
        }
      });
    }
    return { created, moved, defaultRows: await this.defaultRows() };
  }

  async defaultRows(): Promise<number> {
    const rows: Row[] = await this.dataSource.query(`SELECT count(*)::int AS "count" FROM "cdrs_default"`);
    return rows[0]!.count as number;
  }
}

async function createMonth(
  manager: EntityManager,
  month: CdrMonth,
): Promise<{ created: boolean; moved: number }> {
  // Under the migration lock another process may have made it between the check and now.
  const [{ exists }] = (await manager.query(`SELECT to_regclass($1) IS NOT NULL AS "exists"`, [
    `"${month.name}"`,
  ])) as Array<{ exists: boolean }>;
  if (exists) return { created: false, moved: 0 };
  await manager.query(`CREATE TEMPORARY TABLE "cdrs_moving" (LIKE "cdrs") ON COMMIT DROP`);
  const [{ moved }] = (await manager.query(
    `WITH "gone" AS (DELETE FROM "cdrs" WHERE "start" >= $1 AND "start" < $2 RETURNING *),
          "kept" AS (INSERT INTO "cdrs_moving" SELECT * FROM "gone" RETURNING 1)
     SELECT count(*)::int AS "moved" FROM "kept"`,
    [month.from, month.to],
  )) as Array<{ moved: number }>;
  await manager.query(
    `CREATE TABLE "${month.name}" PARTITION OF "cdrs" FOR VALUES FROM ('${isoDay(month.from)}') TO ('${isoDay(month.to)}')`,
  );
  if (moved > 0)
    await manager.query(`INSERT INTO "cdrs" OVERRIDING SYSTEM VALUE SELECT * FROM "cdrs_moving"`);
  return { created: true, moved };
}

export function cdrMonth(from: Date): CdrMonth {
  return { name: `cdrs_${from.toISOString().slice(0, 7).replace('-', '_')}`, from, to: addMonths(from, 1) };
}

function monthOf(name: string): CdrMonth | null {
  const match = MONTH_NAME.exec(name);
  return match === null ? null : cdrMonth(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function addMonths(month: Date, count: number): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + count, 1));
}

function isoDay(day: Date): string {
  return day.toISOString().slice(0, 10);
}

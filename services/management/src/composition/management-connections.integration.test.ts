import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import {
  openIngestionDatabase,
  openMainDatabase,
  openWorkerDatabase,
  type WorkerPool,
} from './management-connections';

async function synchronousCommit(dataSource: DataSource): Promise<string> {
  const [row] = (await dataSource.query('SHOW synchronous_commit')) as Array<{ synchronous_commit: string }>;
  return row!.synchronous_commit;
}

// Ingestion's lookup of stored call ids. On a table with rows, a plan for the values always looks
// cheaper to Postgres than the generic one (it knows the arrays' length), so left to choose it plans
// the statement on every run (docs/operations.md, Call records' pool).
const KEY_LOOKUP = `SELECT k."cdr_id" FROM unnest($1::bigint[], $2::varchar[]) AS w ("partner_id", "call_id")
  JOIN "cdr_call_ids" k ON k."partner_id" = w."partner_id" AND k."call_id" = w."call_id"`;

/** How the pool's one connection planned KEY_LOOKUP in `runs` runs (prepared from the fourth). */
async function plansOfKeyLookup(
  dataSource: DataSource,
  runs: number,
): Promise<{ generic: number; custom: number }> {
  for (let run = 0; run < runs; run++) await dataSource.query(KEY_LOOKUP, [[run + 1], [`call-${run}`]]);
  const [row] = (await dataSource.query(
    `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement = $1`,
    [KEY_LOOKUP],
  )) as Array<{ generic: number; custom: number }>;
  return row!;
}

// Which pools may commit before the disk has their WAL (docs/operations.md, Outbox workers' commits).
describe('management connections', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it('lets only the outbox workers commit without waiting for the disk', async () => {
    const pool = { databasePoolSize: 1 };
    const config = {
      databaseUrl: database.url,
      databasePoolSize: 1,
      databasePreparedStatements: true,
      notifications: pool,
      conversions: pool,
      reports: pool,
      dataLifecycle: pool,
      poolTelemetry: pool,
      transcription: pool,
    };
    const expected: Record<WorkerPool, string> = {
      notifications: 'off',
      conversions: 'off',
      reports: 'on',
      dataLifecycle: 'on',
      poolTelemetry: 'on',
      // Transcripts are data a partner reads: their commits wait for the disk.
      transcription: 'on',
    };
    const opened: DataSource[] = [];
    try {
      const main = await openMainDatabase(config);
      opened.push(main);
      // Call records, partners and everything the API answers for wait for their flush.
      expect(await synchronousCommit(main)).toBe('on');
      for (const [name, setting] of Object.entries(expected) as Array<[WorkerPool, string]>) {
        const worker = await openWorkerDatabase(config, name);
        opened.push(worker);
        expect({ name, setting: await synchronousCommit(worker) }).toEqual({ name, setting });
      }
    } finally {
      await Promise.all(opened.map((dataSource) => dataSource.destroy()));
    }
  });

  it("runs the call records' statements on generic plans, and only theirs (docs/operations.md, Call records' pool)", async () => {
    const config = {
      databaseUrl: database.url,
      databasePoolSize: 1,
      databaseIngestionPoolSize: 1,
      databasePreparedStatements: true,
    };
    const main = await openMainDatabase(config);
    const ingestion = await openIngestionDatabase(config);
    try {
      // Twelve runs: the first three unnamed, then nine prepared (db/prepared-statements.ts).
      expect(await plansOfKeyLookup(ingestion, 12)).toEqual({ generic: 9, custom: 0 });
      // Left to choose, Postgres plans for the values at least five times before it compares.
      const chosen = await plansOfKeyLookup(main, 12);
      expect(chosen.generic + chosen.custom).toBe(9);
      expect(chosen.custom).toBeGreaterThanOrEqual(5);
      // Commits still wait for the disk: a call record answered 201 is on it.
      expect(await synchronousCommit(ingestion)).toBe('on');
    } finally {
      await Promise.all([main.destroy(), ingestion.destroy()]);
    }
  });
});

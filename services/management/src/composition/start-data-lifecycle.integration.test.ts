import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from './management-data-source';
import type { DataLifecycleReport } from '../data-lifecycle/data-lifecycle.service';
import { startDataLifecycle } from './start-data-lifecycle';

// What the management process starts (docs/operations.md, "The daily run, once across replicas").
describe('startDataLifecycle', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('creates the months ahead at start, then runs the job once when it is due', async () => {
    const now = new Date('2031-02-10T12:00:00Z');
    const runs: Array<DataLifecycleReport | null> = [];
    // Each check reads the clock once, and only after the check before it has finished: the reads
    // count the checks.
    let clockReads = 0;
    const running = await startDataLifecycle({
      config: {
        databaseUrl: database.url,
        databasePreparedStatements: true,
        dataLifecycle: {
          hourUtc: 3,
          checkMs: 200,
          monthsAhead: 2,
          cdrChangeRetentionDays: 30,
          databasePoolSize: 2,
        },
      },
      logger: pino({ level: 'silent' }),
      observer: { dataLifecycleRun: (report) => runs.push(report) },
      clock: () => {
        clockReads += 1;
        return now;
      },
    });
    try {
      const months = await dataSource.query(
        `SELECT relname FROM pg_class WHERE relname IN ('cdrs_2031_02', 'cdrs_2031_03', 'cdrs_2031_04') ORDER BY 1`,
      );
      expect(months).toEqual([
        { relname: 'cdrs_2031_02' },
        { relname: 'cdrs_2031_03' },
        { relname: 'cdrs_2031_04' },
      ]);
      await until(() => runs.length > 0);
      // The run's own check read the clock; two reads later the next check has finished. The clock
      // stands still, so the job is not due again.
      const readsAtRun = clockReads;
      await until(() => clockReads >= readsAtRun + 2);
    } finally {
      await running.stop();
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ partitionsCreated: [], recordsDeleted: 0 });
    expect(await dataSource.query(`SELECT job, next_run_at FROM data_lifecycle_runs`)).toEqual([
      { job: 'cdr-retention', next_run_at: new Date('2031-02-11T03:00:00Z') },
    ]);
  });
});

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

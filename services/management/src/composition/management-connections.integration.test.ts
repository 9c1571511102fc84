import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { openMainDatabase, openWorkerDatabase, type WorkerPool } from './management-connections';

async function synchronousCommit(dataSource: DataSource): Promise<string> {
  const [row] = (await dataSource.query('SHOW synchronous_commit')) as Array<{ synchronous_commit: string }>;
  return row!.synchronous_commit;
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
    };
    const expected: Record<WorkerPool, string> = {
      notifications: 'off',
      conversions: 'off',
      reports: 'on',
      dataLifecycle: 'on',
      poolTelemetry: 'on',
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
});

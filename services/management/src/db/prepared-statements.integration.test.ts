import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { Pool } from 'pg';
import { createManagementDataSource } from '../composition/management-data-source';
import { preparingPostgresDriver, type PreparedStatementPolicy } from './prepared-statements';

/** The named statements the (one) connection of a pool of size 1 holds, by their text. */
async function preparedOn(pool: { query: Pool['query'] }): Promise<string[]> {
  const { rows } = await pool.query<{ statement: string }>(
    'SELECT statement FROM pg_prepared_statements ORDER BY statement',
  );
  return rows.map((row) => row.statement);
}

describe('named prepared statements (db/prepared-statements.ts)', () => {
  let database: TestDatabase;

  /** One connection of a pool with the policy given, ended when `work` is done. */
  async function onOneConnection(
    policy: PreparedStatementPolicy,
    work: (pool: Pool) => Promise<void>,
  ): Promise<void> {
    const pool = new (preparingPostgresDriver(policy).Pool)({ connectionString: database.url, max: 1 });
    try {
      await work(pool);
    } finally {
      await pool.end();
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it('prepares a parameterized text once it repeats, and answers the same before and after', async () => {
    await onOneConnection({ preparedAfter: 2, maxPerConnection: 10 }, async (pool) => {
      const sums: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const { rows } = await pool.query<{ sum: number }>('SELECT $1::int + $2::int AS sum', [i, 10]);
        sums.push(rows[0]!.sum);
        // Seen twice: still unnamed. From the third time on: one named statement, reused.
        expect(await preparedOn(pool)).toEqual(i < 2 ? [] : ['SELECT $1::int + $2::int AS sum']);
      }
      expect(sums).toEqual([10, 11, 12, 13, 14]);
    });
  });

  it('leaves statements without parameters alone', async () => {
    await onOneConnection({ preparedAfter: 0, maxPerConnection: 10 }, async (pool) => {
      for (let i = 0; i < 3; i += 1) await pool.query('SELECT 1 AS one');
      expect(await preparedOn(pool)).toEqual([]);
    });
  });

  it('keeps at most maxPerConnection names on a connection; the texts beyond run unnamed', async () => {
    await onOneConnection({ preparedAfter: 0, maxPerConnection: 2 }, async (pool) => {
      for (let round = 0; round < 2; round += 1)
        for (const column of ['a', 'b', 'c', 'd']) {
          const { rows } = await pool.query<Record<string, string>>(`SELECT $1::text AS ${column}`, [column]);
          expect(rows).toEqual([{ [column]: column }]);
        }
      expect(await preparedOn(pool)).toEqual(['SELECT $1::text AS a', 'SELECT $1::text AS b']);
    });
  });

  it('a prepared statement that fails fails alone, and runs again afterwards', async () => {
    await onOneConnection({ preparedAfter: 0, maxPerConnection: 10 }, async (pool) => {
      const divide = (by: number) => pool.query<{ q: number }>('SELECT 10 / $1::int AS q', [by]);
      expect((await divide(2)).rows).toEqual([{ q: 5 }]);
      await expect(divide(0)).rejects.toMatchObject({ code: '22012' });
      expect((await divide(5)).rows).toEqual([{ q: 2 }]);
    });
  });

  it('is what a DataSource with preparedStatements sends, through TypeORM', async () => {
    const dataSource = createManagementDataSource(database.url, {
      applicationName: 'prepared-statements-test',
      size: 1,
      preparedStatements: true,
    });
    await dataSource.initialize();
    try {
      for (let i = 0; i < 5; i += 1)
        expect(await dataSource.query('SELECT $1::int * 2 AS twice', [i])).toEqual([{ twice: i * 2 }]);
      // Inside a transaction too: the statement is the connection's, not the transaction's.
      await dataSource.transaction(async (manager) => {
        expect(await manager.query('SELECT $1::int * 2 AS twice', [21])).toEqual([{ twice: 42 }]);
      });
      expect(await dataSource.query('SELECT statement FROM pg_prepared_statements')).toEqual([
        { statement: 'SELECT $1::int * 2 AS twice' },
      ]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('is off for a DataSource without it (migrations, the benches’ own pools)', async () => {
    const dataSource = createManagementDataSource(database.url, {
      applicationName: 'unprepared-test',
      size: 1,
    });
    await dataSource.initialize();
    try {
      for (let i = 0; i < 5; i += 1) await dataSource.query('SELECT $1::int AS n', [i]);
      expect(await dataSource.query('SELECT statement FROM pg_prepared_statements')).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});

import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { MIGRATIONS } from './data-source';
import { runMigrations } from './migrate';

// A CI check: the entities describe exactly the schema the migrations build.
describe('database schema', () => {
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

  async function pendingSchemaChanges(): Promise<string[]> {
    const sql = await dataSource.driver.createSchemaBuilder().log();
    return sql.upQueries.map((query) => query.query);
  }

  it('has every migration applied in the template', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
  });

  it('matches the entities after the migrations ran', async () => {
    expect(await pendingSchemaChanges()).toEqual([]);
  });

  it('runs every migration down and up again to the same schema', async () => {
    for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration();
    const tables = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
    );
    expect(tables).toEqual([]);

    await runMigrations(database.url);
    expect(await dataSource.showMigrations()).toBe(false);
    expect(await pendingSchemaChanges()).toEqual([]);
  });

  it('lets concurrent starts migrate once', async () => {
    for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration();
    const results = await Promise.all([runMigrations(database.url), runMigrations(database.url)]);
    expect(results.map((applied) => applied.length).sort()).toEqual([0, MIGRATIONS.length]);
    expect(await pendingSchemaChanges()).toEqual([]);
  });
});

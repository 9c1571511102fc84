import { Client } from 'pg';
import { prepareTemplateDatabase } from './template-database';
import { createTestDatabase, type TestDatabase } from './test-database';

const adminUrl = (): string => process.env.TEST_DATABASE_URL as string;

async function query<T extends object>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  const rows = await query(adminUrl(), 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return rows.length === 1;
}

async function tableNames(url: string): Promise<string[]> {
  const rows = await query<{ tablename: string }>(
    url,
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  return rows.map((row) => row.tablename);
}

describe('createTestDatabase without a template', () => {
  const created: TestDatabase[] = [];
  const envBefore = { ...process.env };
  beforeAll(() => {
    delete process.env.TRACKLINE_TEST_TEMPLATE_DB;
    delete process.env.TRACKLINE_TEST_TEMPLATE_DBS;
  });
  afterAll(async () => {
    await Promise.all(created.map((db) => db.drop()));
    process.env = envBefore;
  });

  it('gives each call its own empty database, isolated from the others', async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    created.push(a, b);
    expect(a.name).not.toBe(b.name);
    expect(a.url).toContain(`/${a.name}`);

    await query(a.url, 'CREATE TABLE only_in_a (id int)');
    expect(await tableNames(a.url)).toEqual(['only_in_a']);
    expect(await tableNames(b.url)).toEqual([]);
  });

  it('drop() removes the database even while a connection is still open', async () => {
    const db = await createTestDatabase();
    const leftOpen = new Client({ connectionString: db.url });
    leftOpen.on('error', () => undefined); // the drop terminates it
    await leftOpen.connect();

    await db.drop();

    expect(await databaseExists(db.name)).toBe(false);
    await db.drop(); // a second drop is harmless
    await leftOpen.end().catch(() => undefined);
  });
});

describe('createTestDatabase from a prepared template', () => {
  const created: TestDatabase[] = [];
  const templates: string[] = [];
  const envBefore = { ...process.env };

  async function prepare(table: string, project?: { rootDir: string }): Promise<string> {
    await prepareTemplateDatabase(async (url) => {
      await query(url, `CREATE TABLE ${table} (id int PRIMARY KEY)`);
      await query(url, `INSERT INTO ${table} VALUES (1)`);
    }, project);
    const name = process.env.TRACKLINE_TEST_TEMPLATE_DB as string;
    templates.push(name);
    return name;
  }

  beforeEach(() => {
    delete process.env.TRACKLINE_TEST_TEMPLATE_DB;
    delete process.env.TRACKLINE_TEST_TEMPLATE_DBS;
  });
  afterAll(async () => {
    await Promise.all(created.map((db) => db.drop()));
    for (const name of templates) await query(adminUrl(), `DROP DATABASE IF EXISTS "${name}"`);
    process.env = envBefore;
  });

  it('copies the migrated schema and rows into each test database, and copies stay independent', async () => {
    const template = await prepare('migrated');
    expect(template).toMatch(new RegExp(`^tl_tpl_${process.pid}_[0-9a-f]{8}$`));

    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    created.push(a, b);
    await query(a.url, 'INSERT INTO migrated VALUES (2)');

    expect(await query(a.url, 'SELECT id FROM migrated ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await query(b.url, 'SELECT id FROM migrated ORDER BY id')).toEqual([{ id: 1 }]);
  });

  it('locks the template against connections so copies never fail on a lingering session', async () => {
    const template = await prepare('locked');
    const rows = await query<{ datallowconn: boolean }>(
      adminUrl(),
      'SELECT datallowconn FROM pg_database WHERE datname = $1',
      [template],
    );
    expect(rows).toEqual([{ datallowconn: false }]);
  });

  it('uses the template of the jest project the test file belongs to, not the last one prepared', async () => {
    await prepare('mine', { rootDir: __dirname });
    await prepare('other_project', { rootDir: '/some/other/project' });

    const db = await createTestDatabase();
    created.push(db);

    expect(await tableNames(db.url)).toEqual(['mine']);
  });

  it('drops the template and says so when the migration fails', async () => {
    const before = await query<{ datname: string }>(
      adminUrl(),
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`tl_tpl_${process.pid}_%`],
    );
    await expect(
      prepareTemplateDatabase(async () => {
        throw new Error('migration 42 is broken');
      }),
    ).rejects.toThrow(/migrating the template database tl_tpl_\d+_[0-9a-f]+ failed: migration 42 is broken/);
    const after = await query<{ datname: string }>(
      adminUrl(),
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`tl_tpl_${process.pid}_%`],
    );
    expect(after).toEqual(before);
    expect(process.env.TRACKLINE_TEST_TEMPLATE_DB).toBeUndefined();
  });
});

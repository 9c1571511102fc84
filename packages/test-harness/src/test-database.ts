import { sep } from 'node:path';
import { DATABASE_URL_VAR, readEnv, readProjectTemplates, requireEnv, TEMPLATE_DB_VAR } from './harness-env';
import { databaseUrl, dropDatabase, quoteIdent, withAdminClient } from './pg-admin';
import { uniqueDatabaseName } from './unique-name';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

// For a test file (beforeAll): a database of its own, copied from the prepared template so it is
// already migrated, or empty when no template was prepared. Call drop() in afterAll.
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = requireEnv(DATABASE_URL_VAR);
  const template = templateForCurrentTest();
  const name = uniqueDatabaseName('test');
  const from = template === undefined ? '' : ` TEMPLATE ${quoteIdent(template)}`;
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}${from}`));
  return { url: databaseUrl(adminUrl, name), name, drop: () => dropDatabase(adminUrl, name) };
}

// The template prepared by the jest project the running test file belongs to, else the one named by
// TRACKLINE_TEST_TEMPLATE_DB.
function templateForCurrentTest(): string | undefined {
  const testPath = currentTestPath();
  if (testPath !== undefined) {
    const owners = Object.entries(readProjectTemplates())
      .filter(([rootDir]) => testPath.startsWith(rootDir.endsWith(sep) ? rootDir : rootDir + sep))
      .sort(([a], [b]) => b.length - a.length);
    if (owners.length > 0) return owners[0][1];
  }
  return readEnv(TEMPLATE_DB_VAR);
}

function currentTestPath(): string | undefined {
  const jestExpect = (globalThis as { expect?: { getState?: () => { testPath?: string | null } } }).expect;
  return jestExpect?.getState?.().testPath ?? undefined;
}

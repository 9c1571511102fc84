import { harnessState } from './harness-state';
import { DATABASE_URL_VAR, requireEnv, TEMPLATE_DB_VAR, writeEnv, writeProjectTemplate } from './harness-env';
import { databaseUrl, dropDatabase, quoteIdent, withAdminClient } from './pg-admin';
import { uniqueDatabaseName } from './unique-name';

export type Migrate = (databaseUrl: string) => Promise<void>;

// For a package's jest globalSetup, after startTestStores(): migrates once into a database that
// belongs to this jest run only (several runs share the server), so every test file can copy it
// with createTestDatabase() instead of migrating again. `migrate` must close its connections.
// Pass jest's projectConfig (globalSetup's second argument) when the run has several projects that
// prepare different templates; each project's test files then copy their own.
export async function prepareTemplateDatabase(
  migrate: Migrate,
  project?: { rootDir: string },
): Promise<void> {
  const adminUrl = requireEnv(DATABASE_URL_VAR);
  const name = uniqueDatabaseName('tpl');
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}`));
  harnessState().templates.push(name);
  try {
    await migrate(databaseUrl(adminUrl, name));
  } catch (error) {
    await dropDatabase(adminUrl, name);
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`migrating the template database ${name} failed: ${why}`, { cause: error });
  }
  // CREATE DATABASE ... TEMPLATE refuses a source with open sessions; lock the template against new
  // ones and end any the migration left behind.
  await withAdminClient(adminUrl, async (client) => {
    await client.query(`ALTER DATABASE ${quoteIdent(name)} ALLOW_CONNECTIONS false`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  });
  writeEnv(TEMPLATE_DB_VAR, name);
  if (project !== undefined) writeProjectTemplate(project.rootDir, name);
}

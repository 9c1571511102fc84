// jest globalSetup for management: the harness provides PostgreSQL and Redis, and migrations run
// once into a template database that each integration test file copies (createTestDatabase()).
// Global setup is loaded by plain require (no moduleNameMapper), so the harness is taken from source.
import { prepareTemplateDatabase, startTestStores } from '@trackline/test-harness/src/index';
import { runMigrations } from '../src/db/migrate';

export default async function globalSetup(
  _globalConfig: unknown,
  projectConfig: { rootDir: string },
): Promise<void> {
  await startTestStores();
  await prepareTemplateDatabase(async (databaseUrl) => {
    await runMigrations(databaseUrl);
  }, projectConfig);
}

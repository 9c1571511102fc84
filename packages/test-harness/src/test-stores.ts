import { startContainers } from './containers';
import { harnessState } from './harness-state';
import { DATABASE_URL_VAR, readEnv, REDIS_URL_VAR, writeEnv } from './harness-env';
import { dropDatabase } from './pg-admin';
import { checkPostgres, checkRedis } from './store-check';

const HOW_TO_PROVIDE_STORES =
  `Set ${DATABASE_URL_VAR} and ${REDIS_URL_VAR} (for example ${DATABASE_URL_VAR}=postgres://postgres@127.0.0.1:5432/postgres ` +
  `${REDIS_URL_VAR}=redis://127.0.0.1:6379), or install and start Docker so the test harness can start ` +
  `PostgreSQL and Redis itself with testcontainers.`;

// For jest's globalSetup. Uses the stores the environment names; starts a container for each one
// it does not name. Calling it again in the same process (a second project's global setup) is a no-op.
export async function startTestStores(): Promise<void> {
  const state = harnessState();
  if (state.started) return;

  let databaseUrl = readEnv(DATABASE_URL_VAR);
  let redisUrl = readEnv(REDIS_URL_VAR);
  if (databaseUrl === undefined || redisUrl === undefined) {
    let containers;
    try {
      containers = await startContainers({
        postgres: databaseUrl === undefined,
        redis: redisUrl === undefined,
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(
        `Integration tests need PostgreSQL and Redis. ${HOW_TO_PROVIDE_STORES} (Docker: ${why})`,
      );
    }
    state.stoppers.unshift(() => containers.stop());
    databaseUrl = containers.databaseUrl ?? databaseUrl;
    redisUrl = containers.redisUrl ?? redisUrl;
  }
  // Both are set now: each branch above either kept the variable or started its container.
  const urls = { database: databaseUrl as string, redis: redisUrl as string };

  const problems = (await Promise.all([checkPostgres(urls.database), checkRedis(urls.redis)])).filter(
    (problem): problem is string => problem !== undefined,
  );
  if (problems.length > 0) {
    await stopStarted();
    throw new Error(`${problems.join('; ')}. ${HOW_TO_PROVIDE_STORES}`);
  }

  // Workers are forked after global setup and inherit these.
  writeEnv(DATABASE_URL_VAR, urls.database);
  writeEnv(REDIS_URL_VAR, urls.redis);
  state.started = true;
}

// For jest's globalTeardown: drops the template databases this process prepared and stops the
// containers startTestStores started. Safe to call more than once.
export async function stopTestStores(): Promise<void> {
  const state = harnessState();
  const adminUrl = readEnv(DATABASE_URL_VAR);
  const failures: string[] = [];
  if (adminUrl !== undefined) {
    for (const template of state.templates.splice(0)) {
      await dropDatabase(adminUrl, template).catch((error: unknown) => {
        failures.push(`could not drop template database ${template}: ${String(error)}`);
      });
    }
  }
  await stopStarted();
  state.started = false;
  if (failures.length > 0) throw new Error(failures.join('; '));
}

async function stopStarted(): Promise<void> {
  const state = harnessState();
  for (const stop of state.stoppers.splice(0)) await stop();
}

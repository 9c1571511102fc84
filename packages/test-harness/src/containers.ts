const POSTGRES_IMAGE = 'postgres:16-alpine';
const REDIS_IMAGE = 'redis:7-alpine';

export interface StartedContainers {
  databaseUrl?: string;
  redisUrl?: string;
  stop(): Promise<void>;
}

// testcontainers is imported only here and only when a store is missing, so a run against
// TEST_DATABASE_URL/TEST_REDIS_URL (and every test worker) never loads it.
export async function startContainers(need: {
  postgres: boolean;
  redis: boolean;
}): Promise<StartedContainers> {
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async (): Promise<void> => {
    for (const stopOne of stops.reverse()) await stopOne();
  };
  const result: StartedContainers = { stop };
  try {
    if (need.postgres) {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const postgres = await new PostgreSqlContainer(POSTGRES_IMAGE).start();
      stops.push(() => postgres.stop());
      result.databaseUrl = postgres.getConnectionUri();
    }
    if (need.redis) {
      const { RedisContainer } = await import('@testcontainers/redis');
      const redis = await new RedisContainer(REDIS_IMAGE).start();
      stops.push(() => redis.stop());
      result.redisUrl = redis.getConnectionUrl();
    }
    return result;
  } catch (error) {
    await stop();
    throw error;
  }
}

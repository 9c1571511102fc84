import { createRedisClient, type Env, type Logger, type RedisConnection } from '@trackline/platform';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { loadManagementConfig, type ManagementConfig } from '../config/management-config';
import { createManagementServices, type ManagementServices } from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { createDataSource } from '../db/data-source';
import { createProjections, projectionListeners } from '../projections/create-projections';
import type { ProjectionsService } from '../projections/projections.service';
import type { CliOutput } from './cli-output';

/** What every command gets: the config, the output, and services on a short-lived connection. */
export interface CliContext {
  output: CliOutput;
  /** Read from the environment on first use, so `--help` works even with a broken environment. */
  config(): ManagementConfig;
  /**
   * Connects to Postgres and Redis, runs `work`, and always disconnects, so the process can exit.
   * Changes are projected into Redis after each commit; a Redis failure then is a warning on stderr.
   */
  withServices<T>(work: (services: ManagementServices) => Promise<T>): Promise<T>;
  /** The same connections, for projections:rebuild. */
  withProjections<T>(work: (projections: ProjectionsService) => Promise<T>): Promise<T>;
  /** Postgres only, for commands that change nothing Redis projects (the notification outbox). */
  withDatabase<T>(work: (dataSource: DataSource) => Promise<T>): Promise<T>;
  /** Postgres and Redis, for privacy:erase (call attributions live in Redis). */
  withRedisAndDatabase<T>(work: (dataSource: DataSource, redis: RedisConnection) => Promise<T>): Promise<T>;
}

export function createCliContext(env: Env, output: CliOutput): CliContext {
  let config: ManagementConfig | undefined;
  const context: CliContext = {
    output,
    config: () => (config ??= loadManagementConfig(env)),
    withServices: (work) =>
      withConnections(context.config(), output, ({ dataSource, redis, projections }) =>
        work(
          createManagementServices(
            createManagementStores(dataSource, {
              client: redis,
              keyPrefix: context.config().redis.keyPrefix,
            }),
            context.config(),
            projectionListeners(projections),
          ),
        ),
      ),
    withProjections: (work) =>
      withConnections(context.config(), output, ({ projections }) => work(projections)),
    withRedisAndDatabase: (work) =>
      withConnections(context.config(), output, ({ dataSource, redis }) => work(dataSource, redis)),
    withDatabase: async (work) => {
      const dataSource = createDataSource(context.config().databaseUrl);
      await dataSource.initialize();
      try {
        return await work(dataSource);
      } finally {
        await dataSource.destroy();
      }
    },
  };
  return context;
}

interface Connections {
  dataSource: DataSource;
  redis: RedisConnection;
  projections: ProjectionsService;
}

async function withConnections<T>(
  config: ManagementConfig,
  output: CliOutput,
  work: (connections: Connections) => Promise<T>,
): Promise<T> {
  const logger = warningsTo(output);
  const dataSource = createDataSource(config.databaseUrl);
  await dataSource.initialize();
  // Queued while connecting: a one-shot command starts before the connection is up.
  const redis = createRedisClient({
    url: config.redis.url,
    clusterNodes: config.redis.clusterNodes,
    connectTimeoutMs: 2_000,
    commandTimeoutMs: 2_000,
    maxReconnectDelayMs: 500,
    queueWhileDisconnected: true,
    name: 'management-cli',
    // Connection chatter (including the close at the end) is not the operator's business; a
    // projection that could not be written is, and is logged at error level.
    logger: logger.child({}, { level: 'error' }),
  });
  try {
    const projections = createProjections({ dataSource, redis, keyPrefix: config.redis.keyPrefix, logger });
    return await work({ dataSource, redis, projections });
  } finally {
    redis.disconnect();
    await dataSource.destroy();
  }
}

/** Errors as one readable warning line each on stderr; the operator is not reading JSON logs. */
function warningsTo(output: CliOutput): Logger {
  return pino(
    { level: 'error', base: undefined, timestamp: false },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
        const cause = entry.err?.message === undefined ? '' : ` (${entry.err.message})`;
        output.err(`warning: ${entry.msg ?? ''}${cause}`);
      },
    },
  );
}

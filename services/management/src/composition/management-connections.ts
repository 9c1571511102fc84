import { createRedisClient, type Logger, type RedisConnection } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import type { ManagementConfig } from '../config/management-config';
import type { PoolOptions } from '../db/data-source';
import { createManagementDataSource, createManagementReadDataSource } from './management-data-source';

// Composition root, step 1 of config → connections → stores → services → app (docs/architecture.md,
// Composition): every database pool and Redis connection of the management service is made here,
// each sized and timed by the config.

/** The service's main pool: the API, the customer-seen consumer, provider calls; also one CLI command's. */
export function openMainDatabase(
  config: Pick<ManagementConfig, 'databaseUrl' | 'databasePoolSize' | 'databasePreparedStatements'>,
): Promise<DataSource> {
  return openPrimaryPool(config, { applicationName: 'trackline-management', size: config.databasePoolSize });
}

/**
 * The call records' pool: `POST /telephony/cdrs` and the provider's calls look up and store each
 * record here. Every statement of it finds rows by key (a number, a call id, a caller's leads in a
 * window), so it runs on generic plans: Postgres stops planning the lookups whose parameters it
 * would otherwise plan again on every call (docs/operations.md, Call records' pool). Apart from the
 * API's pool, so a burst of records never waits behind statistics pages either.
 */
export function openIngestionDatabase(
  config: Pick<ManagementConfig, 'databaseUrl' | 'databaseIngestionPoolSize' | 'databasePreparedStatements'>,
): Promise<DataSource> {
  return openPrimaryPool(config, {
    applicationName: 'trackline-management-ingestion',
    size: config.databaseIngestionPoolSize,
    genericPlans: true,
  });
}

/** The read replica's pool when DATABASE_READ_URL names one (docs/configuration.md, Stores). */
export async function openReadDatabase(
  config: Pick<ManagementConfig, 'databaseReadUrl' | 'databaseReadPoolSize' | 'databasePreparedStatements'>,
): Promise<DataSource | undefined> {
  if (config.databaseReadUrl === undefined) return undefined;
  return connected(
    createManagementReadDataSource(config.databaseReadUrl, {
      applicationName: 'trackline-management-read',
      size: config.databaseReadPoolSize,
      preparedStatements: config.databasePreparedStatements,
    }),
  );
}

/**
 * The workers' own pools, so their work never queues behind API requests: the notification worker
 * (claims, recording reads, webhook bodies), the monthly report schedule, the data lifecycle job
 * (a long delete never holds a connection an API request waits for).
 */
const WORKER_POOLS = {
  notifications: 'trackline-management-notifications',
  reports: 'trackline-management-reports',
  dataLifecycle: 'trackline-management-lifecycle',
  poolTelemetry: 'trackline-management-pool-telemetry',
  conversions: 'trackline-management-conversions',
  transcription: 'trackline-management-transcription',
} as const;

export type WorkerPool = keyof typeof WORKER_POOLS;

/**
 * The outbox workers' pools commit without waiting for the disk: what they write is a lease or a
 * mark of a row already durable, and a crash that loses the last of them only sends those rows
 * again, which at-least-once delivery allows (docs/operations.md, Outbox workers' commits). Their
 * flushes no longer queue with the call records' commits.
 */
const OUTBOX_POOLS: ReadonlySet<WorkerPool> = new Set(['notifications', 'conversions']);

export function openWorkerDatabase<P extends WorkerPool>(
  config: Pick<ManagementConfig, 'databaseUrl' | 'databasePreparedStatements'> &
    Record<P, { databasePoolSize: number }>,
  pool: P,
): Promise<DataSource> {
  return openPrimaryPool(config, {
    applicationName: WORKER_POOLS[pool],
    size: config[pool].databasePoolSize,
    asynchronousCommit: OUTBOX_POOLS.has(pool),
  });
}

/** A pool on the primary (DATABASE_URL), preparing statements as DATABASE_PREPARED_STATEMENTS says. */
function openPrimaryPool(
  config: Pick<ManagementConfig, 'databaseUrl' | 'databasePreparedStatements'>,
  pool: Omit<PoolOptions, 'preparedStatements'>,
): Promise<DataSource> {
  return connected(
    createManagementDataSource(config.databaseUrl, {
      ...pool,
      preparedStatements: config.databasePreparedStatements,
    }),
  );
}

/**
 * The API's Redis. A request while Redis is down fails at once with 503 instead of waiting for a
 * reconnect (docs/operations.md, Redis outages).
 */
export function createApiRedis(config: Pick<ManagementConfig, 'redis'>, logger: Logger): RedisConnection {
  return createRedisClient({
    ...config.redis,
    queueWhileDisconnected: false,
    name: 'management-http',
    logger,
  });
}

/**
 * The customer-seen consumer's own connection: its blocking reads would stall every other command
 * on a shared one. A blocked XREADGROUP answers only after BLOCK, so the command timeout leaves it
 * that long and a margin more. The loop waits anyway: commands are queued while disconnected.
 */
export function createCustomerEventsRedis(
  config: Pick<ManagementConfig, 'redis' | 'customerEvents'>,
  logger: Logger,
): RedisConnection {
  return createRedisClient({
    ...config.redis,
    connectTimeoutMs: config.customerEvents.connectTimeoutMs,
    commandTimeoutMs: config.customerEvents.blockMs + config.customerEvents.commandMarginMs,
    queueWhileDisconnected: true,
    name: 'management-customer-events',
    logger,
  });
}

/** The pool telemetry rollup's Redis: a run that finds Redis away fails and is repeated next time. */
export function createPoolTelemetryRedis(
  config: Pick<ManagementConfig, 'redis'>,
  logger: Logger,
): RedisConnection {
  return createRedisClient({
    ...config.redis,
    queueWhileDisconnected: false,
    name: 'management-pool-telemetry',
    logger,
  });
}

/** A CLI command's Redis: queued while connecting, since a one-shot command starts before the connection is up. */
export function createCliRedis(
  config: Pick<ManagementConfig, 'redis' | 'cli'>,
  logger: Logger,
): RedisConnection {
  return createRedisClient({
    ...config.redis,
    commandTimeoutMs: config.cli.redisCommandTimeoutMs,
    maxReconnectDelayMs: config.cli.redisMaxReconnectDelayMs,
    queueWhileDisconnected: true,
    name: 'management-cli',
    logger,
  });
}

async function connected(dataSource: DataSource): Promise<DataSource> {
  await dataSource.initialize();
  return dataSource;
}

import { createRedisClient, type Logger, type RedisConnection } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import type { ManagementConfig } from '../config/management-config';
import { createDataSource, createReadDataSource, type PoolOptions } from '../db/data-source';

// Composition root, step 1 of config → connections → stores → services → app (docs/architecture.md,
// Composition): every database pool and Redis connection of the management service is made here,
// each sized and timed by the config.

/** The service's main pool: the API, the customer-seen consumer, provider calls; also one CLI command's. */
export function openMainDatabase(
  config: Pick<ManagementConfig, 'databaseUrl' | 'databasePoolSize'>,
): Promise<DataSource> {
  return connected(
    createDataSource(config.databaseUrl, {
      applicationName: 'trackline-management',
      size: config.databasePoolSize,
    }),
  );
}

/** The read replica's pool when DATABASE_READ_URL names one (docs/configuration.md, Stores). */
export async function openReadDatabase(
  config: Pick<ManagementConfig, 'databaseReadUrl' | 'databaseReadPoolSize'>,
): Promise<DataSource | undefined> {
  if (config.databaseReadUrl === undefined) return undefined;
  return connected(
    createReadDataSource(config.databaseReadUrl, {
      applicationName: 'trackline-management-read',
      size: config.databaseReadPoolSize,
    }),
  );
}

/** The notification worker's own pool: its claims, recording reads and webhook bodies never queue behind API requests. */
export function openNotificationsDatabase(
  config: Pick<ManagementConfig, 'databaseUrl' | 'notifications'>,
): Promise<DataSource> {
  return ownPool(config.databaseUrl, {
    applicationName: 'trackline-management-notifications',
    size: config.notifications.databasePoolSize,
  });
}

/** The data lifecycle job's own pool: a long delete never holds a connection API requests wait for. */
export function openDataLifecycleDatabase(
  config: Pick<ManagementConfig, 'databaseUrl' | 'dataLifecycle'>,
): Promise<DataSource> {
  return ownPool(config.databaseUrl, {
    applicationName: 'trackline-management-lifecycle',
    size: config.dataLifecycle.databasePoolSize,
  });
}

/** The monthly report schedule's own pool (a tick is a handful of statements every quarter hour). */
export function openReportsDatabase(
  config: Pick<ManagementConfig, 'databaseUrl' | 'reports'>,
): Promise<DataSource> {
  return ownPool(config.databaseUrl, {
    applicationName: 'trackline-management-reports',
    size: config.reports.databasePoolSize,
  });
}

/**
 * The API's Redis. A request while Redis is down fails at once with 503 instead of waiting for a
 * reconnect (docs/operations.md, Redis outages).
 */
export function createApiRedis(config: Pick<ManagementConfig, 'redis'>, logger: Logger): RedisConnection {
  return createRedisClient({
    url: config.redis.url,
    clusterNodes: config.redis.clusterNodes,
    connectTimeoutMs: config.redis.connectTimeoutMs,
    commandTimeoutMs: config.redis.commandTimeoutMs,
    maxReconnectDelayMs: config.redis.maxReconnectDelayMs,
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
    url: config.redis.url,
    clusterNodes: config.redis.clusterNodes,
    connectTimeoutMs: config.customerEvents.connectTimeoutMs,
    commandTimeoutMs: config.customerEvents.blockMs + config.customerEvents.commandMarginMs,
    maxReconnectDelayMs: config.redis.maxReconnectDelayMs,
    queueWhileDisconnected: true,
    name: 'management-customer-events',
    logger,
  });
}

/** A CLI command's Redis: queued while connecting, since a one-shot command starts before the connection is up. */
export function createCliRedis(
  config: Pick<ManagementConfig, 'redis' | 'cli'>,
  logger: Logger,
): RedisConnection {
  return createRedisClient({
    url: config.redis.url,
    clusterNodes: config.redis.clusterNodes,
    connectTimeoutMs: config.redis.connectTimeoutMs,
    commandTimeoutMs: config.cli.redisCommandTimeoutMs,
    maxReconnectDelayMs: config.cli.redisMaxReconnectDelayMs,
    queueWhileDisconnected: true,
    name: 'management-cli',
    logger,
  });
}

function ownPool(databaseUrl: string, pool: PoolOptions): Promise<DataSource> {
  return connected(createDataSource(databaseUrl, pool));
}

async function connected(dataSource: DataSource): Promise<DataSource> {
  await dataSource.initialize();
  return dataSource;
}

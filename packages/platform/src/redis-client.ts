import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

export type RedisConnection = Redis | Cluster;

export interface RedisClientOptions {
  /** `redis://host:port[/db]`; ignored when clusterNodes is non-empty. */
  url: string;
  /** Seed nodes of a Redis Cluster (`host:port`). When set, an ioredis Cluster client is made. */
  clusterNodes: string[];
  connectTimeoutMs: number;
  /** A command that gets no answer within this time fails instead of hanging the caller. */
  commandTimeoutMs: number;
  /** Longest pause between reconnection attempts. */
  maxReconnectDelayMs: number;
  /**
   * Queue commands while disconnected? The replacement hot path says no: it must answer fast
   * with an error rather than wait for a reconnect.
   */
  queueWhileDisconnected: boolean;
  name: string;
  logger: Logger;
}

/** The one place Redis connections are made: explicit timeouts, retry strategy, logged state changes. */
export function createRedisClient(options: RedisClientOptions): RedisConnection {
  const retryStrategy = (attempt: number): number =>
    Math.min(50 * 2 ** Math.min(attempt, 10), options.maxReconnectDelayMs);
  const base: RedisOptions = {
    connectionName: options.name,
    connectTimeout: options.connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs,
    enableOfflineQueue: options.queueWhileDisconnected,
    maxRetriesPerRequest: options.queueWhileDisconnected ? 3 : 0,
    retryStrategy,
  };
  const client: RedisConnection =
    options.clusterNodes.length > 0
      ? new Cluster(options.clusterNodes.map(parseNode), {
          redisOptions: base,
          clusterRetryStrategy: retryStrategy,
          enableOfflineQueue: options.queueWhileDisconnected,
          slotsRefreshTimeout: options.connectTimeoutMs,
        })
      : new Redis(options.url, base);
  logConnectionEvents(client, options);
  return client;
}

function parseNode(spec: string): { host: string; port: number } {
  const index = spec.lastIndexOf(':');
  if (index <= 0) return { host: spec, port: 6379 };
  return { host: spec.slice(0, index).replace(/^\[|\]$/g, ''), port: Number(spec.slice(index + 1)) };
}

function logConnectionEvents(client: RedisConnection, options: RedisClientOptions): void {
  const log = options.logger.child({ redis: options.name });
  let connected = false;
  client.on('ready', () => {
    connected = true;
    log.info('redis connection ready');
  });
  client.on('error', (error: Error) => {
    // ioredis emits an error per failed attempt; log at warn once disconnected to avoid a flood at error level.
    log.warn({ err: error.message }, 'redis error');
  });
  client.on('close', () => {
    if (connected) log.warn('redis connection closed');
    connected = false;
  });
  client.on('reconnecting', (delay: number) => log.info({ delayMs: delay }, 'redis reconnecting'));
}

/** True when Redis answers a PING within the client's command timeout. */
export async function pingRedis(client: RedisConnection): Promise<boolean> {
  try {
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  }
}

import { createRedisClient, type RedisConnection } from '@trackline/platform';
import { createTestRedis } from '@trackline/test-harness';
import { silentLogger } from './fixtures';

/** Where a suite runs: a connection (single Redis or Cluster), a key namespace, and how to clean up. */
export interface RedisTarget {
  redis: RedisConnection;
  keyPrefix: string;
  close(): Promise<void>;
}

/** Resolves once the client can take commands (the service's client refuses commands until then). */
export function whenReady(redis: RedisConnection): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Redis did not become ready within 10 s')), 10_000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The shared test Redis with this file's own key prefix (test-harness createTestRedis). */
export async function singleRedisTarget(): Promise<RedisTarget> {
  const test = createTestRedis();
  const redis = createRedisClient({
    url: test.url,
    clusterNodes: [],
    connectTimeoutMs: 2000,
    commandTimeoutMs: 2000,
    maxReconnectDelayMs: 200,
    queueWhileDisconnected: false,
    name: 'replacement-test',
    logger: silentLogger,
  });
  await whenReady(redis);
  return {
    redis,
    keyPrefix: test.keyPrefix,
    close: async () => {
      redis.disconnect();
      await test.cleanup();
    },
  };
}

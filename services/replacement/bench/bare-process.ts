import { createLogger, createRedisClient, listen } from '@trackline/platform';
import { createBareServer } from './bare-server';
import { createMinimalServer } from './minimal-server';

/**
 * Child-process entry of the baseline servers: `node bare-process.js <port> <redis url> <key prefix>
 * [minimal]` — the bare server running the service's allocation script, or with `minimal` the minimal
 * bare server of the whole-system bench (minimal-server.ts).
 * Its Redis client is made by the same factory with the service's default timeouts, so the two
 * servers differ only in what runs between the socket and Redis.
 */
async function main(): Promise<void> {
  const [port, redisUrl, keyPrefix, kind] = process.argv.slice(2);
  if (port === undefined || redisUrl === undefined || keyPrefix === undefined) {
    throw new Error('usage: bare-process.js <port> <redis url> <key prefix> [minimal]');
  }
  const redis = createRedisClient({
    url: redisUrl,
    clusterNodes: [],
    connectTimeoutMs: 1000,
    // The service's default; the instruction count (server-instructions.ts) runs the server under
    // valgrind, many times slower, and raises it as it raises the service's REDIS_COMMAND_TIMEOUT_MS.
    commandTimeoutMs: Number(process.env.REDIS_COMMAND_TIMEOUT_MS ?? 100),
    maxReconnectDelayMs: 1000,
    queueWhileDisconnected: false,
    name: 'bench-bare',
    logger: createLogger({ service: 'bench-bare', level: 'warn' }),
  });
  const server =
    kind === 'minimal' ? createMinimalServer(redis, keyPrefix) : createBareServer(redis, keyPrefix);
  server.keepAliveTimeout = 65_000;
  await listen(server, Number(port), '127.0.0.1');
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
    redis.disconnect();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bare server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

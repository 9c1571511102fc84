import { createLogger, createRedisClient, listen } from '@trackline/platform';
import { createBareServer } from './bare-server';

/**
 * Child-process entry of the baseline server: `node bare-process.js <port> <redis url> <key prefix>`.
 * Its Redis client is made by the same factory with the service's default timeouts, so the two
 * servers differ only in what runs between the socket and Redis.
 */
async function main(): Promise<void> {
  const [port, redisUrl, keyPrefix] = process.argv.slice(2);
  if (port === undefined || redisUrl === undefined || keyPrefix === undefined) {
    throw new Error('usage: bare-process.js <port> <redis url> <key prefix>');
  }
  const redis = createRedisClient({
    url: redisUrl,
    clusterNodes: [],
    connectTimeoutMs: 1000,
    commandTimeoutMs: 100,
    maxReconnectDelayMs: 1000,
    queueWhileDisconnected: false,
    name: 'bench-bare',
    logger: createLogger({ service: 'bench-bare', level: 'warn' }),
  });
  const server = createBareServer(redis, keyPrefix);
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

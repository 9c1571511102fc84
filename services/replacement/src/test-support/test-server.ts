import type { Server } from 'node:http';
import { createLimitedHttpServer, listen, type RedisConnection } from '@trackline/platform';
import { createReplacementApp } from '../app';
import type { ReplacementConfig } from '../config/replacement-config';
import { markProjectionsComplete, silentLogger, testConfig } from './fixtures';

export interface TestServer {
  baseUrl: string;
  server: Server;
  /** The clock the app's rules run on; tests set it. */
  clock: { now: number };
  /** Writes the pool telemetry counted so far (it is otherwise written once a second). */
  flushPoolTelemetry(): Promise<void>;
  close(): Promise<void>;
}

/** The real app on a free loopback port, over the given Redis connection, with a controlled clock. */
export async function startTestServer(
  redis: RedisConnection,
  keyPrefix: string,
  overrides: Partial<ReplacementConfig> = {},
): Promise<TestServer> {
  // The tests write projections as management does; they also stand in for its completed full
  // rebuild, so an unknown advId or number is unknown (docs/redis-keys.md, Projection generation).
  await markProjectionsComplete(redis, keyPrefix);
  const clock = { now: Date.UTC(2026, 0, 5, 9, 0, 0) };
  const config = testConfig(keyPrefix, overrides);
  const replacement = createReplacementApp({
    config,
    logger: silentLogger,
    redis,
    clock: () => clock.now,
  });
  const server = createLimitedHttpServer(config.http, replacement.handler);
  const port = await listen(server, 0, '127.0.0.1');
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    clock,
    flushPoolTelemetry: () => replacement.flushPoolTelemetry(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await replacement.close();
    },
  };
}

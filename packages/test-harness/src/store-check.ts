import { Redis } from 'ioredis';
import { redactUrl, withAdminClient } from './pg-admin';

const REDIS_CONNECT_TIMEOUT_MS = 5_000;

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Each check returns a one-line problem, or undefined when the store answers.
export async function checkPostgres(url: string): Promise<string | undefined> {
  try {
    await withAdminClient(url, (client) => client.query('SELECT 1'));
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${redactUrl(url)} does not answer: ${reason(error)}`;
  }
}

export async function checkRedis(url: string): Promise<string | undefined> {
  // No retries and no offline queue: a store that is down must fail the check now, not hang.
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // ioredis reports the socket error as an event and rejects connect() with a generic "Connection is
  // closed"; keep the event's error, it says why (refused, unknown host, auth).
  let socketError: unknown;
  client.on('error', (error: unknown) => {
    socketError ??= error;
  });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return `Redis at ${redactUrl(url)} does not answer: ${reason(socketError ?? error)}`;
  } finally {
    client.disconnect();
  }
}

import { Redis } from 'ioredis';
import { REDIS_URL_VAR, requireEnv } from './harness-env';
import { randomSuffix } from './unique-name';

export interface TestRedis {
  url: string;
  keyPrefix: string;
  cleanup(): Promise<void>;
}

const SCAN_BATCH = 500;

// For a test file: a key namespace of its own on the shared Redis. Every key the code under test
// writes must start with keyPrefix (ioredis' keyPrefix option, or the prefix passed to the key
// builders); cleanup() deletes exactly those keys and nothing else on the server.
export function createTestRedis(): TestRedis {
  const url = requireEnv(REDIS_URL_VAR);
  const keyPrefix = `t${randomSuffix()}:`;
  return { url, keyPrefix, cleanup: () => deleteKeysWithPrefix(url, keyPrefix) };
}

// SCAN, not KEYS or FLUSHDB: other test runs use the same server at the same time.
async function deleteKeysWithPrefix(url: string, keyPrefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    // The prefix is "t" + hex + ":", so it contains no glob metacharacters to escape.
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', SCAN_BATCH);
      if (keys.length > 0) await client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

import { Redis } from 'ioredis';
import { randomSuffix } from './unique-name';
import { createTestRedis } from './test-redis';

async function keysMatching(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

describe('createTestRedis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.TEST_REDIS_URL as string);
  });
  afterAll(() => redis.quit());

  it('gives each call its own prefix on the shared server', () => {
    const a = createTestRedis();
    const b = createTestRedis();
    expect(a.url).toBe(process.env.TEST_REDIS_URL);
    expect(a.keyPrefix).toMatch(/^t[0-9a-f]{8}:$/);
    expect(a.keyPrefix).not.toBe(b.keyPrefix);
  });

  it('cleanup deletes every key of its prefix, over many SCAN pages, and nothing else', async () => {
    const mine = createTestRedis();
    const neighbour = createTestRedis();
    // Shares the prefix' letters but not the prefix itself.
    const outsider = `${mine.keyPrefix.slice(0, -1)}x-${randomSuffix()}`;
    const pipeline = redis.pipeline();
    for (let i = 0; i < 1_200; i++) pipeline.set(`${mine.keyPrefix}k${i}`, 'v');
    pipeline.hset(`${mine.keyPrefix}{partner-1}:hash`, 'f', 'v');
    pipeline.set(`${neighbour.keyPrefix}k0`, 'v');
    pipeline.set(outsider, 'v');
    await pipeline.exec();

    await mine.cleanup();

    expect(await keysMatching(redis, `${mine.keyPrefix}*`)).toEqual([]);
    expect(await redis.exists(`${neighbour.keyPrefix}k0`, outsider)).toBe(2);

    await neighbour.cleanup();
    await redis.del(outsider);
  });

  it('cleanup of an unused namespace succeeds', async () => {
    await expect(createTestRedis().cleanup()).resolves.toBeUndefined();
  });
});

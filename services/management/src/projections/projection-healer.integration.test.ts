import {
  decodePartnerConfig,
  decodeProjectionGeneration,
  encodeProjectionGeneration,
  numberIndexKey,
  partnerKeys,
  PROJECTION_VERSION,
  projectionKeys,
} from '@trackline/contracts';
import { createLogger } from '@trackline/platform';
import { Redis } from 'ioredis';
import pino from 'pino';
import {
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { IoredisProjectionGenerationStore } from './projection-generation.store';
import { ProjectionHealer } from './projection-healer';
import type { RebuildCounts } from './projections.service';

const POOL_NUMBER = '+4740000001';
const silent = createLogger({ service: 'projection-healer-test', level: 'silent' });
const NO_COUNTS: RebuildCounts = {
  partners: 0,
  poolNumbers: 0,
  staticRoutes: 0,
  answeringNumbers: 0,
  staleIndexEntries: 0,
};

async function eventually<T>(probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('projections heal themselves after Redis lost its data', () => {
  let stores: TestStores;
  let redis: Redis;
  let service: RunningService;
  const logLines: Array<{ msg: string; reason?: string }> = [];

  beforeAll(async () => {
    stores = await createTestStores();
    const partner = await stores.services.partners.create({
      name: 'acme',
      username: 'acme-api',
      password: 'secret pass',
      signingSecret: 'sixteen-chars-ok',
      allowIps: ['127.0.0.1'],
    });
    await stores.dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at) VALUES ($1, $2, 'pool', now())`,
      [partner.id, POOL_NUMBER],
    );
    redis = new Redis(stores.redis.url);
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logLines.push(JSON.parse(line) as { msg: string }) },
    );
    service = await startTestService(testConfig(stores, { PROJECTION_CHECK_INTERVAL_MS: '200' }), { logger });
  });

  afterAll(async () => {
    await service?.close();
    redis?.disconnect();
    await stores?.release();
  });

  const prefix = () => stores.redis.keyPrefix;

  it('marks the rebuild made at start', async () => {
    const marker = decodeProjectionGeneration(await redis.get(projectionKeys(prefix()).generation));
    expect(marker).toEqual(expect.objectContaining({ version: PROJECTION_VERSION }));
    expect(logLines).toContainEqual(
      expect.objectContaining({ msg: 'Redis projections rebuilt', reason: 'start' }),
    );
  });

  it('rebuilds every projection and a new marker by itself once the keys are gone', async () => {
    const before = decodeProjectionGeneration(await redis.get(projectionKeys(prefix()).generation))!;
    // Every key of this file's namespace goes, as when Redis restarts empty.
    await stores.redis.cleanup();

    const after = await eventually(async () =>
      decodeProjectionGeneration(await redis.get(projectionKeys(prefix()).generation)),
    );
    expect(after.id).not.toBe(before.id);
    // The marker is written last: everything of the partner is back when it is there.
    expect(decodePartnerConfig(await redis.hgetall(partnerKeys(prefix(), 'acme').config))?.advId).toBe(
      'acme',
    );
    expect(await redis.zrange(partnerKeys(prefix(), 'acme').pool, 0, -1)).toEqual([POOL_NUMBER]);
    expect(await redis.hget(numberIndexKey(prefix()), POOL_NUMBER)).toBe('pool:acme');
    expect(logLines).toContainEqual(
      expect.objectContaining({ msg: 'Redis projections rebuilt', reason: 'marker-missing' }),
    );
  });

  it('rebuilds over a marker of an older projection version, never over a newer one', async () => {
    const key = projectionKeys(prefix()).generation;
    const older = { version: PROJECTION_VERSION - 1, id: 'older', builtAt: new Date().toISOString() };
    await redis.set(key, encodeProjectionGeneration(older));
    const rebuilt = await eventually(async () => {
      const marker = decodeProjectionGeneration(await redis.get(key));
      return marker !== null && marker.id !== 'older' ? marker : null;
    });
    expect(rebuilt.version).toBe(PROJECTION_VERSION);

    const newer = { version: PROJECTION_VERSION + 1, id: 'newer', builtAt: new Date().toISOString() };
    await redis.set(key, encodeProjectionGeneration(newer));
    const healer = new ProjectionHealer(
      { rebuild: () => Promise.reject(new Error('must not rebuild')) },
      new IoredisProjectionGenerationStore(redis, prefix()),
      silent,
      { rebuildLockMs: 1_000 },
    );
    expect(await healer.healIfNeeded()).toBeNull();
    expect(decodeProjectionGeneration(await redis.get(key))?.id).toBe('newer');
  });
});

describe('the rebuild lock and the run mark', () => {
  let stores: TestStores;
  let redis: Redis;

  beforeAll(async () => {
    stores = await createTestStores();
    redis = new Redis(stores.redis.url);
  });

  afterAll(async () => {
    redis?.disconnect();
    await stores?.release();
  });

  it('lets one replica rebuild at a time unless forced', async () => {
    const store = new IoredisProjectionGenerationStore(redis, stores.redis.keyPrefix);
    expect(await store.claim('first', { lockMs: 10_000, force: false })).toBe(true);
    expect(await store.claim('second', { lockMs: 10_000, force: false })).toBe(false);
    expect(await store.claim('forced', { lockMs: 10_000, force: true })).toBe(true);
    const marker = { version: PROJECTION_VERSION, id: 'first', builtAt: new Date().toISOString() };
    // Both runs kept their marks: each may finish; the lock goes with its holder only.
    expect(await store.finish('first', marker)).toBe(true);
    expect(await redis.get(projectionKeys(stores.redis.keyPrefix).rebuildLock)).toBe('forced');
    expect(await store.finish('forced', { ...marker, id: 'forced' })).toBe(true);
    expect(await redis.exists(projectionKeys(stores.redis.keyPrefix).rebuildLock)).toBe(0);
  });

  it('writes no marker when Redis lost data during the rebuild, and the next check rebuilds', async () => {
    const prefix = stores.redis.keyPrefix;
    let rebuilds = 0;
    const healer = new ProjectionHealer(
      {
        rebuild: async (): Promise<RebuildCounts> => {
          rebuilds += 1;
          // The first rebuild is cut through by Redis losing everything, marks included.
          if (rebuilds === 1) await stores.redis.cleanup();
          return NO_COUNTS;
        },
      },
      new IoredisProjectionGenerationStore(redis, prefix),
      silent,
      { rebuildLockMs: 10_000 },
    );
    await stores.redis.cleanup();
    const first = await healer.healIfNeeded();
    expect(first).toEqual(expect.objectContaining({ marked: false }));
    expect(await redis.exists(projectionKeys(prefix).generation)).toBe(0);
    const second = await healer.healIfNeeded();
    expect(second).toEqual(expect.objectContaining({ marked: true }));
    expect(decodeProjectionGeneration(await redis.get(projectionKeys(prefix).generation))?.id).toBe(
      second!.generation.id,
    );
    expect(rebuilds).toBe(2);
  });

  it('leaves the rebuild to the replica holding the lock', async () => {
    const prefix = stores.redis.keyPrefix;
    await stores.redis.cleanup();
    await redis.set(projectionKeys(prefix).rebuildLock, 'other-replica', 'PX', 10_000);
    const healer = new ProjectionHealer(
      { rebuild: () => Promise.reject(new Error('must not rebuild')) },
      new IoredisProjectionGenerationStore(redis, prefix),
      silent,
      { rebuildLockMs: 10_000 },
    );
    expect(await healer.healIfNeeded()).toBeNull();
    expect(await redis.get(projectionKeys(prefix).rebuildLock)).toBe('other-replica');
  });
});

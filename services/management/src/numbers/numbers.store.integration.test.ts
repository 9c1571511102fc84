import { partnerKeys } from '@trackline/contracts';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { insertTestPartners } from '../test-support/test-partners';
import { NumberPoolsService } from './number-pools.service';
import { toNumberPoolRecord } from './number-pools.routes';
import { TypeormNumbersStore } from './numbers.store';
import { numbersStoreCases } from './numbers.store.cases';
import { RedisPoolBindingsReader } from './pool-bindings.reader';
import { onOwnDatabase } from '../test-support/store-case-fixtures';
import { storesOn } from '../composition/stores-on-manager';

const NOW = new Date('2026-03-02T10:00:00.000Z');

describe('number inventory on Postgres and pool use from Redis', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let testRedis: TestRedis;
  let redis: Redis;
  let store: TypeormNumbersStore;
  let acme: string;
  let beta: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    testRedis = createTestRedis();
    redis = new Redis(testRedis.url);
    store = storesOn(dataSource.manager).numbers;
    [acme, beta] = await insertTestPartners(dataSource.manager, 'acme', 'beta');
  });

  afterAll(async () => {
    redis.disconnect();
    await testRedis.cleanup();
    await dataSource.destroy();
    await database.drop();
  });

  it('adds all numbers or none: one taken number keeps the others out', async () => {
    expect(await store.add(acme, 'pool', ['+4791000001', '+4791000002'], NOW)).toBe(true);
    expect(await store.add(beta, 'static', ['+4791000003', '+4791000002'], NOW)).toBe(false);
    expect(await store.findTaken(['+4791000003', '+4791000002', '+4791000001'])).toEqual([
      { e164: '+4791000001', kind: 'pool', partnerName: 'acme' },
      { e164: '+4791000002', kind: 'pool', partnerName: 'acme' },
    ]);
    expect(await store.list(beta)).toEqual([]);
  });

  it('marks a static number free from when it is added; a pool number is never handed to a source', async () => {
    await store.add(beta, 'static', ['+4722000001'], NOW);
    expect(await store.list(beta)).toEqual([
      {
        e164: '+4722000001',
        kind: 'static',
        addedAt: NOW,
        heldUntil: null,
        freeSince: NOW,
        usedBySourceId: null,
      },
    ]);
    const claim = () =>
      dataSource.transaction((manager) => storesOn(manager).numbers.claimStaticNumber(acme, NOW));
    expect(await claim()).toBeNull();
  });

  it('holds a number back until the given instant', async () => {
    await store.add(acme, 'static', ['+4722100001'], NOW);
    const claim = (at: Date) =>
      dataSource.transaction((manager) => storesOn(manager).numbers.claimStaticNumber(acme, at));
    expect(await claim(NOW)).toBe('+4722100001');
    const until = new Date(NOW.getTime() + 1000);
    await store.holdBack(acme, '+4722100001', until);
    expect(await claim(new Date(until.getTime() - 1))).toBeNull();
    expect(await claim(until)).toBe('+4722100001');
  });

  it('counts a pool number bound while its score lies after now, and only numbers in the inventory', async () => {
    await store.add(acme, 'pool', ['+4791000010', '+4791000011', '+4791000012'], NOW);
    const pool = partnerKeys(testRedis.keyPrefix, 'acme').pool;
    const t = NOW.getTime();
    // Bound (session or hold-back running), free since 1 ms ago, free now exactly, never used,
    // and a number the inventory no longer has.
    await redis.zadd(pool, t + 60_000, '+4791000001', t - 1, '+4791000002', t, '+4791000010');
    await redis.zadd(pool, 0, '+4791000011', t + 5_000, '+4791000012', t + 5_000, '+4799999999');
    const service = new NumberPoolsService({
      numbers: store,
      bindings: new RedisPoolBindingsReader(redis, testRedis.keyPrefix),
      partners: { findById: () => Promise.resolve(null) },
      telemetry: { hours: () => Promise.resolve([]) },
      settings: storesOn(dataSource.manager).poolSettings,
      resizes: storesOn(dataSource.manager).poolResizes,
    });

    const usage = await service.usage({ id: acme, name: 'acme' }, NOW);
    expect(usage).toEqual({
      numbers: ['+4791000001', '+4791000002', '+4791000010', '+4791000011', '+4791000012'],
      size: 5,
      bound: 2,
    });
    expect(toNumberPoolRecord(usage)).toEqual({
      numbers: usage.numbers,
      size: '5',
      bound: '2',
      utilisation: '0.4000',
    });
    expect(await service.usage({ id: beta, name: 'beta' }, NOW)).toEqual({ numbers: [], size: 0, bound: 0 });
    expect(toNumberPoolRecord({ numbers: [], size: 0, bound: 0 }).utilisation).toBeNull();
  });
});

describe('TypeormNumbersStore, the cases its fake passes too', () => {
  numbersStoreCases(
    onOwnDatabase(async ({ manager }) => ({
      store: storesOn(manager).numbers,
      newPartner: async (name) => (await insertTestPartners(manager, name))[0]!,
    })),
  );
});

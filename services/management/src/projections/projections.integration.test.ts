import {
  decodeNumberIndexEntry,
  decodePartnerConfig,
  decodeSourceRoute,
  numberIndexKey,
  partnerKeys,
  PROJECTION_VERSION,
} from '@trackline/contracts';
import { parseAltNumbers } from '@trackline/domain';
import { createLogger } from '@trackline/platform';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createManagementServices, type ManagementServices } from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { createManagementDataSource } from '../composition/management-data-source';
import type { SourceInput } from '../sources/source';
import { createProjections, projectionListeners } from '../composition/projections-composition';
import type { ProjectionsService } from './projections.service';

const silent = createLogger({ service: 'projections-test', level: 'silent' });

// Changes go through the services with the projections as their listener, as in the running service;
// what Redis holds is read with the contracts' decoders, as replacement reads it.
describe('Redis projections', () => {
  let database: TestDatabase;
  let testRedis: TestRedis;
  let redis: Redis;
  let dataSource: DataSource;
  let projections: ProjectionsService;
  let services: ManagementServices;
  let now: Date;
  let acmeId: string;
  let customerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    testRedis = createTestRedis();
    redis = new Redis(testRedis.url);
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    now = new Date('2026-05-04T10:00:00Z');
    projections = createProjections({
      dataSource,
      redis,
      keyPrefix: testRedis.keyPrefix,
      logger: silent,
      clock: () => now,
    });
    services = createManagementServices(
      createManagementStores(dataSource, { client: redis, keyPrefix: testRedis.keyPrefix }),
      {
        digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
        greetingRecordNumber: '+4722000000',
      },
      projectionListeners(projections),
    );
  });

  afterAll(async () => {
    redis.disconnect();
    await dataSource.destroy();
    await testRedis.cleanup();
    await database.drop();
  });

  const keys = () => partnerKeys(testRedis.keyPrefix, 'acme');

  function sourceInput(overrides: Partial<SourceInput>): SourceInput {
    return {
      customerId,
      name: 'Finn ad',
      media: null,
      phonenr: '+4722334455',
      campaignId: null,
      publisherId: null,
      email: null,
      smsnumber: null,
      vmGreetingId: null,
      sourceClass: 'standard',
      altNumbers: [],
      customFields: {},
      notifyOnMissedCall: false,
      notifyOnNewVoicemail: false,
      vmDivertAll: false,
      vmDivertBusy: false,
      vmDivertNoanswer: false,
      ...overrides,
    };
  }

  /** Every key under the test prefix with its whole value, as comparable data. */
  async function snapshot(): Promise<Record<string, unknown>> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${testRedis.keyPrefix}*`, 'COUNT', 500);
      found.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    const result: Record<string, unknown> = {};
    for (const key of found.sort()) {
      const type = await redis.type(key);
      if (type === 'hash') result[key] = await redis.hgetall(key);
      else if (type === 'zset') result[key] = await redis.zrange(key, 0, -1, 'WITHSCORES');
      else result[key] = { type, value: await redis.dump(key) };
    }
    return result;
  }

  it('shows each change in Redis when the service call returns', async () => {
    const acme = await services.partners.create({
      name: 'acme',
      username: 'acme-api',
      password: 'correct horse',
      signingSecret: 'a-signing-secret-of-32-characters',
      fallbackNumber: '+4722999999',
    });
    acmeId = acme.id;
    expect(decodePartnerConfig(await redis.hgetall(keys().config))).toEqual({
      advId: 'acme',
      signingSecret: 'a-signing-secret-of-32-characters',
      country: 'NO',
      timeZone: 'Europe/Oslo',
      sessionTtlSeconds: 1800,
      holdBackSeconds: 600,
      onExhausted: 'recycle',
      fallbackNumber: '+4722999999',
    });

    await services.partners.update('acme', { onExhausted: 'original', timeZone: 'Europe/Stockholm' });
    expect(decodePartnerConfig(await redis.hgetall(keys().config))).toMatchObject({
      onExhausted: 'original',
      timeZone: 'Europe/Stockholm',
    });

    await services.numbers.add('acme', 'pool', ['+4791000001-+4791000003'], now);
    await services.numbers.add('acme', 'static', ['+4790000001-+4790000003'], now);
    expect(await redis.zrange(keys().pool, 0, -1, 'WITHSCORES')).toEqual([
      '+4791000001', '0', '+4791000002', '0', '+4791000003', '0',
    ]); // prettier-ignore
    expect(
      decodeNumberIndexEntry((await redis.hget(numberIndexKey(testRedis.keyPrefix), '+4791000002'))!),
    ).toEqual({
      advId: 'acme',
      kind: 'pool',
    });

    const customer = await services.customers.create(acmeId, {
      name: 'Kari',
      custnr: 'K1',
      corporateid: null,
      email: null,
      dncsClassName: null,
      receiveMonthlyReport: false,
      serviceCallerId: false,
      customFields: {},
    });
    customerId = customer.id;
    const { greeting } = await services.greetings.create(acmeId, customerId, 'Welcome');
    const open = await services.sources.create(
      acmeId,
      sourceInput({
        vmGreetingId: greeting.id,
        altNumbers: parseAltNumbers(
          'alt_numbers',
          [{ phonenr: 'voicemail', weekdays: 'sat,sun', from_time: '00:00', to_time: '24:00' }],
          'NO',
        ),
      }),
      now,
    );
    const route = decodeSourceRoute((await redis.hget(keys().staticRoutes, open.destnr))!);
    expect(route).toMatchObject({
      sourceId: open.id,
      customerId,
      phonenr: '+4722334455',
      vmGreetingId: greeting.id,
      closed: false,
      altNumbers: [{ phonenr: 'voicemail', weekdays: ['sat', 'sun'], fromMinute: 0, toMinute: 1440 }],
    });
    expect(decodeSourceRoute((await redis.hget(keys().sourcesByPhonenr, '+4722334455'))!).sourceId).toBe(
      open.id,
    );
    expect(await redis.hget(numberIndexKey(testRedis.keyPrefix), open.destnr)).toBe('static:acme');

    await services.sources.update(acmeId, open.id, { vmDivertAll: true });
    expect(decodeSourceRoute((await redis.hget(keys().staticRoutes, open.destnr))!).vmDivertAll).toBe(true);

    const closing = await services.sources.create(
      acmeId,
      sourceInput({ name: 'Closed ad', phonenr: '+4722112233' }),
      now,
    );
    await services.sources.close(acmeId, closing.id, now);
    // Held back: calls still route, marked closed.
    expect(decodeSourceRoute((await redis.hget(keys().staticRoutes, closing.destnr))!).closed).toBe(true);
  });

  it('rebuilds from an empty Redis exactly the keys the changes wrote', async () => {
    const before = await snapshot();
    expect(Object.keys(before).length).toBe(5);
    const counts = await projections.rebuild();
    expect(counts).toEqual({
      partners: 1,
      poolNumbers: 3,
      staticRoutes: 2,
      answeringNumbers: 2,
      staleIndexEntries: 0,
    });
    expect(await snapshot()).toEqual(before);

    await redis.del(...Object.keys(before));
    expect(await snapshot()).toEqual({});
    await projections.rebuild();
    expect(await snapshot()).toEqual(before);
  });

  it("keeps replacement's pool scores and bindings of numbers that stay, and drops what left", async () => {
    const freeFrom = now.getTime() + 1_800_000;
    await redis.zadd(keys().pool, 'XX', freeFrom, '+4791000002');
    await redis.hset(keys().bindings, '+4791000002', '{"session_id":"s-1"}');
    await dataSource.query(`DELETE FROM tracking_numbers WHERE e164 = '+4791000003'`);
    await redis.hset(
      numberIndexKey(testRedis.keyPrefix),
      '+4799999999',
      'pool:acme',
      '+4798888888',
      'pool:gone',
    );

    const counts = await projections.rebuild();
    expect(counts.staleIndexEntries).toBe(2);
    expect(await redis.zrange(keys().pool, 0, -1, 'WITHSCORES')).toEqual([
      '+4791000001', '0', '+4791000002', String(freeFrom),
    ]); // prettier-ignore
    expect(await redis.hget(keys().bindings, '+4791000002')).toBe('{"session_id":"s-1"}');
    const index = await redis.hgetall(numberIndexKey(testRedis.keyPrefix));
    // +4790000003 is static and no source holds it: indexed all the same.
    expect(Object.keys(index).sort()).toEqual([
      '+4790000001',
      '+4790000002',
      '+4790000003',
      '+4791000001',
      '+4791000002',
    ]);
  });

  it("drops a closed source's route once its number's hold-back is over", async () => {
    const closedRoutes = Object.values(await redis.hgetall(keys().staticRoutes)).map(decodeSourceRoute);
    expect(closedRoutes.filter((route) => route.closed)).toHaveLength(1);
    now = new Date(now.getTime() + 31 * 24 * 3600 * 1000);
    await projections.rebuild();
    const routes = Object.values(await redis.hgetall(keys().staticRoutes)).map(decodeSourceRoute);
    expect(routes.map((route) => route.closed)).toEqual([false]);
    expect(Object.keys(await redis.hgetall(keys().sourcesByPhonenr))).toEqual(['+4722334455']);
  });

  it('logs a Redis failure after a commit instead of failing, and the rebuild repairs it', async () => {
    const broken = new Redis({
      port: 1,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    const errors: Array<{ msg: string; partnerId: string }> = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line)) });
    const failing = createProjections({
      dataSource,
      redis: broken,
      keyPrefix: testRedis.keyPrefix,
      logger: log,
    });
    const failingServices = createManagementServices(
      createManagementStores(dataSource),
      {
        digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
        greetingRecordNumber: '+4722000000',
      },
      projectionListeners(failing),
    );
    try {
      await failingServices.partners.update('acme', { onExhausted: 'recycle' });
    } finally {
      broken.disconnect();
    }
    expect(errors).toEqual([
      expect.objectContaining({ partnerId: acmeId, msg: expect.stringContaining('projections:rebuild') }),
    ]);
    expect(decodePartnerConfig(await redis.hgetall(keys().config))?.onExhausted).toBe('original');

    await projections.rebuild();
    expect(decodePartnerConfig(await redis.hgetall(keys().config))?.onExhausted).toBe('recycle');
  });

  it("projects busy and no-answer diversion, the source's flag else its open campaign's", async () => {
    const { model } = await services.pricingModels.create(acmeId, {
      name: 'CPL',
      type: '0',
      uniqueCallerSeconds: 0,
      conditions: [
        {
          costPerLead: '10.00',
          minDuration: 0,
          window: { weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'], fromMinute: 0, toMinute: 1440 },
        },
      ],
    });
    const { greeting } = await services.greetings.create(acmeId, customerId, 'Campaign greeting');
    const { campaign } = await services.campaigns.create(acmeId, customerId, {
      pricingModelId: model.id,
      name: 'Spring',
      partnerCampaignId: null,
      email: null,
      smsnumber: null,
      vmGreetingId: greeting.id,
      notifyOnMissedCall: false,
      notifyOnNewVoicemail: false,
      vmDivertAll: false,
      vmDivertBusy: false,
      vmDivertNoanswer: true,
    });
    const source = await services.sources.create(
      acmeId,
      sourceInput({
        name: 'Campaign ad',
        phonenr: '+4722445566',
        campaignId: campaign.id,
        vmDivertBusy: true,
      }),
      now,
    );
    const routeOf = async () => decodeSourceRoute((await redis.hget(keys().staticRoutes, source.destnr))!);
    expect(await routeOf()).toMatchObject({
      sourceId: source.id,
      vmDivertAll: false,
      vmDivertBusy: true,
      vmDivertNoanswer: true,
      vmGreetingId: greeting.id,
      stale: false,
    });
    const raw = JSON.parse((await redis.hget(keys().sourcesByPhonenr, '+4722445566'))!) as Record<
      string,
      unknown
    >;
    expect(raw).toMatchObject({
      version: PROJECTION_VERSION,
      vm_divert_busy: true,
      vm_divert_noanswer: true,
    });

    await services.campaigns.update(
      acmeId,
      customerId,
      campaign.id,
      { vmDivertNoanswer: false, vmDivertBusy: true },
      now,
    );
    expect(await routeOf()).toMatchObject({ vmDivertBusy: true, vmDivertNoanswer: false });
    await services.sources.update(acmeId, source.id, { vmDivertBusy: false, vmDivertNoanswer: true });
    // The campaign still diverts on busy; the source now adds no answer.
    expect(await routeOf()).toMatchObject({ vmDivertBusy: true, vmDivertNoanswer: true });
    // A closed campaign lends nothing any more: only the source's own flag and no greeting.
    await services.campaigns.update(acmeId, customerId, campaign.id, { state: '2' }, now);
    expect(await routeOf()).toMatchObject({
      vmDivertBusy: false,
      vmDivertNoanswer: true,
      vmGreetingId: null,
    });

    const before = await snapshot();
    await projections.rebuild();
    expect(await snapshot()).toEqual(before);
  });
});

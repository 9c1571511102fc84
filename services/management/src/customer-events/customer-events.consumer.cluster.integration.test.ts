import { CUSTOMER_EVENTS_GROUP, encodeCustomerSeenEvent, partnerKeys } from '@trackline/contracts';
import { createLogger, createRedisClient } from '@trackline/platform';
import {
  createTestDatabase,
  startRedisCluster,
  type RedisClusterHandle,
  type TestDatabase,
} from '@trackline/test-harness';
import { Cluster } from 'ioredis';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { customerSightingStores } from '../composition/management-stores';
import { storesOn } from '../composition/stores-on-manager';
import { typeormUnitOfWork } from '../db/unit-of-work';
import { CustomerEventsConsumer } from './customer-events.consumer';
import { CustomerEventsService } from './customer-events.service';

const logger = createLogger({ service: 'customer-events-cluster-test', level: 'silent' });
const PARTNERS = 6;

// Each partner's stream lives in its partner's slot; one XREADGROUP over two of them would be a
// CROSSSLOT error on a cluster. This runs the consumer on a real three-master cluster.
describe('CustomerEventsConsumer on Redis Cluster', () => {
  let cluster: RedisClusterHandle;
  let writer: Cluster;
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumer: CustomerEventsConsumer | undefined;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    writer = new Cluster(cluster.nodes);
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
  }, 60_000);

  afterAll(async () => {
    await consumer?.stop();
    await writer?.quit();
    await cluster?.stop();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('consumes and reclaims on every partner stream, spread over the masters', async () => {
    const { partners, customers } = storesOn(dataSource.manager);
    const created = [];
    for (let i = 0; i < PARTNERS; i++) {
      created.push(
        await partners.insert({
          name: `cluster-${i}`,
          digestUsername: `cluster-${i}-api`,
          ha1Md5: 'a'.repeat(32),
          ha1Sha256: 'b'.repeat(64),
          signingSecret: 'sixteen-chars-ok',
          allowIps: [],
          country: 'NO',
          timeZone: 'Europe/Oslo',
          dni: {
            sessionTtlSeconds: 1800,
            holdBackSeconds: 600,
            onExhausted: 'recycle',
            fallbackNumber: null,
          },
          showFullAnum: false,
          cdrRetentionMonths: 24,
          anumMaskAfterDays: null,
        }),
      );
    }
    const streams = created.map((partner) => partnerKeys('', partner.name).customerEvents);
    const slots = new Set(await Promise.all(streams.map((key) => writer.cluster('KEYSLOT', key))));
    expect(slots.size).toBeGreaterThan(1);

    // One entry is already pending in a consumer that crashed.
    await writer.xgroup('CREATE', streams[0]!, CUSTOMER_EVENTS_GROUP, '0', 'MKSTREAM');
    await writer.xadd(
      streams[0]!,
      '*',
      ...encodeCustomerSeenEvent({ advId: created[0]!.name, custnr: 'R-1', at: 1 }),
    );
    await writer.xreadgroup('GROUP', CUSTOMER_EVENTS_GROUP, 'crashed', 'STREAMS', streams[0]!, '>');

    consumer = new CustomerEventsConsumer(
      {
        redis: createRedisClient({
          url: 'redis://unused',
          clusterNodes: cluster.nodes.map(({ host, port }) => `${host}:${port}`),
          connectTimeoutMs: 2_000,
          commandTimeoutMs: 5_000,
          maxReconnectDelayMs: 1_000,
          queueWhileDisconnected: true,
          name: 'customer-events-cluster-test',
          logger,
        }),
        partners,
        events: new CustomerEventsService(typeormUnitOfWork(dataSource, customerSightingStores)),
        logger,
        clock: Date.now,
      },
      {
        keyPrefix: '',
        consumerName: 'cluster-test',
        blockMs: 100,
        batchSize: 10,
        reclaimIdleMs: 200,
        reclaimIntervalMs: 100,
        partnerRefreshMs: 60_000,
        retryDelayMs: 100,
      },
    );
    consumer.start();
    for (const [i, partner] of created.entries()) {
      const fields = encodeCustomerSeenEvent({
        advId: partner.name,
        custnr: `C-${i}`,
        custname: `Customer ${i}`,
        at: 1,
      });
      await writer.xadd(streams[i]!, '*', ...fields);
    }

    const deadline = Date.now() + 5_000;
    const wanted = [...created.map((partner, i) => [partner.id, `C-${i}`]), [created[0]!.id, 'R-1']];
    for (const [partnerId, custnr] of wanted) {
      while ((await customers.list(partnerId!, { custnr: custnr! })).length === 0) {
        if (Date.now() > deadline) throw new Error(`customer ${custnr} of partner ${partnerId} not created`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    for (const key of streams) {
      const [pending] = (await writer.xpending(key, CUSTOMER_EVENTS_GROUP)) as [number];
      expect(pending).toBe(0);
    }
  }, 30_000);
});

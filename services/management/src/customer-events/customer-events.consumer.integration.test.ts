import {
  CUSTOMER_EVENTS_GROUP,
  CUSTOMER_EVENTS_MAXLEN,
  encodeCustomerSeenEvent,
  partnerKeys,
  type CustomerSeenEvent,
} from '@trackline/contracts';
import { createLogger, createRedisClient, type RedisConnection } from '@trackline/platform';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Customer } from '../customers/customer';
import type { CustomersStore, TypeormCustomersStore } from '../customers/customers.store';
import { createManagementDataSource } from '../composition/management-data-source';
import { customerSightingStores } from '../composition/management-stores';
import { typeormUnitOfWork } from '../db/unit-of-work';
import type { TypeormPartnersStore } from '../partners/partners.store';
import { storesOn } from '../composition/stores-on-manager';
import {
  CustomerEventsConsumer,
  type CustomerEventsConsumerDeps,
  type CustomerEventsConsumerSettings,
} from './customer-events.consumer';
import { CustomerEventsService } from './customer-events.service';
import { testPartnerValues } from '../test-support/test-partners';

const logger = createLogger({ service: 'customer-events-test', level: 'silent' });

// The consumer against a real Redis (a key prefix of this file's own) and a real database. Events are
// appended as the allocation script appends them: XADD <stream> MAXLEN ~ <cap> * <encoded fields>.
describe('CustomerEventsConsumer', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let testRedis: TestRedis;
  let writer: Redis;
  let partners: TypeormPartnersStore;
  let customers: TypeormCustomersStore;
  const running: CustomerEventsConsumer[] = [];
  let partnerCount = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    ({ partners, customers } = storesOn(dataSource.manager));
    testRedis = createTestRedis();
    writer = new Redis(testRedis.url);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((consumer) => consumer.stop()));
  });

  afterAll(async () => {
    writer.disconnect();
    await testRedis.cleanup();
    await dataSource.destroy();
    await database.drop();
  });

  async function createPartner(): Promise<{ id: string; name: string; stream: string }> {
    partnerCount += 1;
    const name = `partner-${partnerCount}`;
    const partner = await partners.insert(testPartnerValues(name));
    return { id: partner.id, name, stream: partnerKeys(testRedis.keyPrefix, name).customerEvents };
  }

  function connection(): RedisConnection {
    return createRedisClient({
      url: testRedis.url,
      clusterNodes: [],
      connectTimeoutMs: 2_000,
      commandTimeoutMs: 5_000,
      maxReconnectDelayMs: 1_000,
      queueWhileDisconnected: true,
      name: 'customer-events-test',
      logger,
    });
  }

  function startConsumer(
    options: {
      consumerName?: string;
      store?: Pick<CustomersStore, 'upsertSeenMany'>;
      settings?: Partial<CustomerEventsConsumerSettings>;
      redis?: RedisConnection;
      partners?: CustomerEventsConsumerDeps['partners'];
    } = {},
  ): CustomerEventsConsumer {
    const consumer = new CustomerEventsConsumer(
      {
        redis: options.redis ?? connection(),
        partners: options.partners ?? partners,
        events: new CustomerEventsService(
          options.store === undefined
            ? typeormUnitOfWork(dataSource, customerSightingStores)
            : {
                run: (work) =>
                  work({ customers: options.store!, webhooks: { enqueue: async () => undefined } }),
              },
        ),
        logger,
        clock: Date.now,
      },
      {
        keyPrefix: testRedis.keyPrefix,
        consumerName: options.consumerName ?? `test-${running.length}`,
        blockMs: 100,
        batchSize: 10,
        reclaimIdleMs: 60_000,
        reclaimIntervalMs: 60_000,
        partnerRefreshMs: 60_000,
        retryDelayMs: 100,
        ...options.settings,
      },
    );
    running.push(consumer);
    consumer.start();
    return consumer;
  }

  function append(stream: string, fields: string[]): Promise<string | null> {
    return writer.xadd(stream, 'MAXLEN', '~', CUSTOMER_EVENTS_MAXLEN, '*', ...fields);
  }

  function appendEvent(stream: string, event: Omit<CustomerSeenEvent, 'at'>): Promise<string | null> {
    return append(stream, encodeCustomerSeenEvent({ ...event, at: Date.now() }));
  }

  async function pendingCount(stream: string): Promise<number> {
    const summary = (await writer.xpending(stream, CUSTOMER_EVENTS_GROUP)) as [number, ...unknown[]];
    return summary[0];
  }

  async function customer(partnerId: string, custnr: string): Promise<Customer | undefined> {
    return (await customers.list(partnerId, { custnr }))[0];
  }

  async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 3_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const matching = async <T>(value: Promise<T>, accept: (value: T) => boolean): Promise<T | undefined> => {
    const resolved = await value;
    return accept(resolved) ? resolved : undefined;
  };

  it('creates the customer within a second, then updates it when the name changes', async () => {
    const acme = await createPartner();
    startConsumer();
    // Let the consumer make its group first, so the clock below measures delivery only.
    await eventually(() => matching(writer.exists(acme.stream), (exists) => exists === 1));

    await appendEvent(acme.stream, {
      advId: acme.name,
      custnr: 'K-1',
      custname: 'Kari AS',
      custemail: 'kari@example.no',
    });
    const created = await eventually(() => customer(acme.id, 'K-1'));
    expect(created).toMatchObject({ name: 'Kari AS', email: 'kari@example.no' });

    await appendEvent(acme.stream, { advId: acme.name, custnr: 'K-1', custname: 'Kari Nordmann AS' });
    const updated = await eventually(() =>
      matching(customer(acme.id, 'K-1'), (found) => found?.name === 'Kari Nordmann AS'),
    );
    expect(updated).toMatchObject({ id: created.id, email: 'kari@example.no' });
    await eventually(() => matching(pendingCount(acme.stream), (count) => count === 0));
  });

  it('applies a burst as one batch: one transaction, one upsert statement, every entry acked', async () => {
    const acme = await createPartner();
    for (let i = 0; i < 20; i++) {
      await appendEvent(acme.stream, { advId: acme.name, custnr: `B-${i % 5}`, custname: `Burst ${i}` });
    }
    const batches: number[] = [];
    const store: Pick<CustomersStore, 'upsertSeenMany'> = {
      upsertSeenMany: (partnerId, sightings) => {
        batches.push(sightings.length);
        return customers.upsertSeenMany(partnerId, sightings);
      },
    };
    startConsumer({ store, settings: { batchSize: 50 } });
    await eventually(async () => ((await customers.list(acme.id, {})).length === 5 ? true : undefined));
    await eventually(() => matching(pendingCount(acme.stream), (count) => count === 0));
    expect(batches).toEqual([20]);
    const stored = await customers.list(acme.id, {});
    // Each custnr carries the last name the burst sent for it.
    expect(stored.map((c) => [c.custnr, c.name])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [`B-${i}`, `Burst ${15 + i}`]),
    );
  });

  it('reads entries appended before the group existed', async () => {
    const early = await createPartner();
    await appendEvent(early.stream, { advId: early.name, custnr: 'E-1', custname: 'Early AS' });
    startConsumer();
    expect(await eventually(() => customer(early.id, 'E-1'))).toMatchObject({ name: 'Early AS' });
  });

  it('acks and skips a malformed entry, and goes on with the next', async () => {
    const acme = await createPartner();
    await append(acme.stream, [
      'version',
      '99',
      'type',
      'customer_seen',
      'adv_id',
      acme.name,
      'custnr',
      'X-1',
    ]);
    // Decodes, but Postgres refuses the NUL character: retrying would never help.
    await appendEvent(acme.stream, { advId: acme.name, custnr: 'X-\u0000', custname: 'Nul AS' });
    await appendEvent(acme.stream, { advId: acme.name, custnr: 'K-2', custname: 'After AS' });
    startConsumer();
    await eventually(() => customer(acme.id, 'K-2'));
    await eventually(() => matching(pendingCount(acme.stream), (count) => count === 0));
    expect((await customers.list(acme.id, {})).map((found) => found.custnr)).toEqual(['K-2']);
    const [lag] = (await writer.xinfo('GROUPS', acme.stream)) as unknown[][];
    expect(lag).toEqual(expect.arrayContaining(['pending', 0]));
  });

  it('stores the valid value of an event with an invalid e-mail', async () => {
    const acme = await createPartner();
    startConsumer();
    await appendEvent(acme.stream, {
      advId: acme.name,
      custnr: 'K-3',
      custname: 'Valid AS',
      custemail: 'not-an-address',
    });
    expect(await eventually(() => customer(acme.id, 'K-3'))).toMatchObject({ name: 'Valid AS', email: null });
  });

  it('acks only after the commit: an entry the database refused stays pending, then applies', async () => {
    const acme = await createPartner();
    let failing = true;
    let attempts = 0;
    const store: Pick<CustomersStore, 'upsertSeenMany'> = {
      upsertSeenMany: (...args) => {
        attempts += 1;
        return failing
          ? Promise.reject(new Error('database unavailable'))
          : customers.upsertSeenMany(...args);
      },
    };
    startConsumer({ consumerName: 'flaky', store });
    await appendEvent(acme.stream, { advId: acme.name, custnr: 'K-4', custname: 'First' });
    await appendEvent(acme.stream, { advId: acme.name, custnr: 'K-4', custname: 'Second' });

    await eventually(() => matching(Promise.resolve(attempts), (count) => count >= 3));
    expect(await pendingCount(acme.stream)).toBe(2);
    const pending = (await writer.xpending(acme.stream, CUSTOMER_EVENTS_GROUP, '-', '+', 10)) as unknown[][];
    expect(pending.map((entry) => entry[1])).toEqual(['flaky', 'flaky']);
    expect(await customer(acme.id, 'K-4')).toBeUndefined();

    failing = false;
    await eventually(() => matching(pendingCount(acme.stream), (count) => count === 0));
    // Retried in order: the later name wins.
    expect(await customer(acme.id, 'K-4')).toMatchObject({ name: 'Second' });
  });

  it('reclaims an entry a crashed consumer read and never acked', async () => {
    const acme = await createPartner();
    await writer.xgroup('CREATE', acme.stream, CUSTOMER_EVENTS_GROUP, '0', 'MKSTREAM');
    await appendEvent(acme.stream, { advId: acme.name, custnr: 'K-5', custname: 'Orphan AS' });
    // The "crashed" consumer: reads the entry, then is never heard of again.
    const read = await writer.xreadgroup(
      'GROUP',
      CUSTOMER_EVENTS_GROUP,
      'crashed',
      'COUNT',
      10,
      'STREAMS',
      acme.stream,
      '>',
    );
    expect(read).not.toBeNull();

    // Not before the idle time: the crashed consumer might only be slow. A consumer whose idle time
    // the entry cannot reach in this test runs whole rounds (reclaim, then read); when it asks for
    // the partners a second time, its first round is over and it has left the entry where it is.
    let lists = 0;
    const counted = { list: () => ((lists += 1), partners.list()) };
    const patient = startConsumer({
      consumerName: 'patient',
      partners: counted,
      settings: { reclaimIdleMs: 3_600_000, partnerRefreshMs: 0 },
    });
    await eventually(() => matching(Promise.resolve(lists), (count) => count >= 2));
    await patient.stop();
    expect(await customer(acme.id, 'K-5')).toBeUndefined();
    const pending = (await writer.xpending(acme.stream, CUSTOMER_EVENTS_GROUP, '-', '+', 10)) as unknown[][];
    expect(pending.map((entry) => entry[1])).toEqual(['crashed']);

    startConsumer({ consumerName: 'survivor', settings: { reclaimIdleMs: 300, reclaimIntervalMs: 100 } });
    expect(await eventually(() => customer(acme.id, 'K-5'))).toMatchObject({ name: 'Orphan AS' });
    await eventually(() => matching(pendingCount(acme.stream), (count) => count === 0));
  });

  it('consumes the stream of a partner created after the start', async () => {
    const first = await createPartner();
    startConsumer({ settings: { partnerRefreshMs: 100 } });
    await eventually(() => matching(writer.exists(first.stream), (exists) => exists === 1));
    const later = await createPartner();
    await appendEvent(later.stream, { advId: later.name, custnr: 'L-1', custname: 'Later AS' });
    expect(await eventually(() => customer(later.id, 'L-1'))).toMatchObject({ name: 'Later AS' });
  });

  it('makes the group again when the stream was deleted', async () => {
    const acme = await createPartner();
    startConsumer();
    await eventually(() => matching(writer.exists(acme.stream), (exists) => exists === 1));
    await writer.del(acme.stream);
    await appendEvent(acme.stream, { advId: acme.name, custnr: 'D-1', custname: 'Again AS' });
    expect(await eventually(() => customer(acme.id, 'D-1'))).toMatchObject({ name: 'Again AS' });
  });

  it('stop() interrupts the idle pause, ends the loop and closes its connection', async () => {
    // With no partner to read the loop idles in a pause of blockMs. That pause outlasts the test's
    // timeout, so stop() resolves only when it interrupts the pause instead of waiting it out.
    let listed!: () => void;
    const roundStarted = new Promise<void>((resolve) => (listed = resolve));
    const noPartners = {
      list: async () => {
        listed();
        return [];
      },
    };
    const redis = connection();
    const consumer = startConsumer({ redis, partners: noPartners, settings: { blockMs: 10 * 60_000 } });
    await roundStarted;
    await consumer.stop();
    expect(redis.status).toBe('end');
  });
});

import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { insertTestPartners } from '../test-support/test-partners';
import type { NewSource } from './source';
import { TypeormSourcesStore } from './sources.store';
import { sourcesStoreCases, sourceValues } from './sources.store.cases';
import { insertTestCustomer, onOwnDatabase } from '../test-support/store-case-fixtures';
import { storesOn } from '../composition/stores-on-manager';

const NOW = new Date('2026-03-02T10:00:00.000Z');

describe('TypeormSourcesStore', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormSourcesStore;
  let acme: string;
  let beta: string;
  let customer: string;
  let otherCustomer: string;
  let nextNumber = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = storesOn(dataSource.manager).sources;
    const insert = async (sql: string, values: unknown[]) =>
      ((await dataSource.query(sql, values)) as Array<{ id: string }>)[0]!.id;
    [acme, beta] = await insertTestPartners(dataSource.manager, 'acme', 'beta');
    customer = await insert(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'a', '1') RETURNING id`,
      [acme],
    );
    otherCustomer = await insert(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'b', '2') RETURNING id`,
      [acme],
    );
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function values(overrides: Partial<NewSource> = {}): Promise<NewSource> {
    const destnr = `+4722${String(++nextNumber).padStart(6, '0')}`;
    await storesOn(dataSource.manager).numbers.add(acme, 'static', [destnr], NOW);
    return sourceValues(customer, destnr, overrides);
  }

  it('inserts and reads back every column, alt rules included', async () => {
    const input = await values();
    const source = await store.insert(acme, input);
    expect(source).toMatchObject({
      ...input,
      partnerId: acme,
      status: 'active',
      expire: null,
      closedAt: null,
    });
    expect(await store.findById(acme, source.id)).toEqual(source);
    expect(await store.findById(beta, source.id)).toBeNull();
  });

  it('updates the given columns, replaces alt rules, merges custom fields', async () => {
    const source = await store.insert(acme, await values());
    const updated = await store.update(acme, source.id, {
      name: 'renamed',
      email: null,
      altNumbers: [],
      customFields: { custom_2: 'two' },
    });
    expect(updated).toMatchObject({
      name: 'renamed',
      email: null,
      media: 'web',
      altNumbers: [],
      customFields: { custom_1: 'one', custom_2: 'two' },
    });
    expect(await store.update(beta, source.id, { name: 'stolen' })).toBeNull();
    expect(await store.close(beta, source.id, NOW)).toBeNull();
  });

  it('pages in id order, counts all, filters by customer and counts open sources', async () => {
    const own = await Promise.all([1, 2].map(async () => store.insert(acme, await values())));
    const other = await store.insert(acme, await values({ customerId: otherCustomer }));
    const all = await store.page(acme, { page: 0, pageSize: 1000 });
    expect(all.sources.map((source) => source.id)).toEqual(
      [...all.sources.map((source) => source.id)].sort((a, b) => Number(a) - Number(b)),
    );
    const second = await store.page(acme, { page: 1, pageSize: 2 });
    expect(second.total).toBe(all.total);
    expect(second.sources.map((source) => source.id)).toEqual(
      all.sources.slice(2, 4).map((source) => source.id),
    );
    expect((await store.page(acme, { page: 0, pageSize: 1000, customerId: otherCustomer })).sources).toEqual([
      other,
    ]);
    expect((await store.page(beta, { page: 0, pageSize: 1000 })).total).toBe(0);

    const openBefore = await store.countOpenSources(acme, customer);
    await store.close(acme, own[0]!.id, NOW);
    expect(await store.countOpenSources(acme, customer)).toBe(openBefore - 1);
    expect(await store.countOpenSources(beta, customer)).toBe(0);
  });

  it('refuses a second open source on the same number', async () => {
    const first = await values();
    await store.insert(acme, first);
    await expect(store.insert(acme, { ...first })).rejects.toThrow(/UQ_sources_open_destnr/);
  });

  it('answers the numbers open sources ring, as phonenr or in alt_numbers', async () => {
    const rule = { weekdays: ['mon' as const], fromMinute: 480, toMinute: 960 };
    const ringing = await store.insert(
      acme,
      await values({
        phonenr: '+4723111111',
        altNumbers: [{ phonenr: '+4723222222', ...rule, altKey: 'desk' }],
      }),
    );
    const closed = await store.insert(acme, await values({ phonenr: '+4723333333' }));
    await store.close(acme, closed.id, NOW);
    expect(
      await store.answeringNumbersAmong(['+4723111111', '+4723222222', '+4723333333', '+4723444444']),
    ).toEqual(['+4723111111', '+4723222222']);
    await store.close(acme, ringing.id, NOW);
    expect(await store.answeringNumbersAmong(['+4723111111', '+4723222222'])).toEqual([]);
  });
});

describe('TypeormSourcesStore, the cases its fake passes too', () => {
  sourcesStoreCases(
    onOwnDatabase(async ({ manager }) => {
      const [partnerId, otherPartnerId] = await insertTestPartners(manager, 'acme', 'beta');
      const numbers = storesOn(manager).numbers;
      let count = 0;
      return {
        store: storesOn(manager).sources,
        partnerId: partnerId!,
        otherPartnerId: otherPartnerId!,
        newCustomer: () => insertTestCustomer(manager, partnerId!, `C-${++count}`),
        newNumber: async () => {
          const e164 = `+4722${String(++count).padStart(6, '0')}`;
          await numbers.add(partnerId!, 'static', [e164], NOW);
          return e164;
        },
        holdBack: (e164, until) => numbers.holdBack(partnerId!, e164, until),
      };
    }),
  );
});

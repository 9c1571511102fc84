import { ValidationError } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { TypeormCustomersStore } from './customers.store';
import { insertTestPartners } from '../test-support/test-partners';

// upsertSeen: the customer-seen consumer's one write (docs/redis-keys.md, Customer-seen stream), on the real
// table and unique index.
describe('TypeormCustomersStore.upsertSeen', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormCustomersStore;
  let acme: string;
  let beta: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = new TypeormCustomersStore(dataSource.manager);
    [acme, beta] = await insertTestPartners(dataSource.manager, 'acme', 'beta');
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(async () => {
    await dataSource.query('DELETE FROM customers');
  });

  async function only(partnerId: string, custnr: string) {
    const found = await store.list(partnerId, { custnr });
    expect(found).toHaveLength(1);
    return found[0]!;
  }

  it('creates the customer with the name and e-mail sent', async () => {
    expect(await store.upsertSeen(acme, 'K-1', { name: 'Kari AS', email: 'kari@example.no' })).toBe(
      'created',
    );
    expect(await only(acme, 'K-1')).toMatchObject({
      name: 'Kari AS',
      email: 'kari@example.no',
      corporateid: null,
    });
  });

  it('names a customer created without a name by its custnr', async () => {
    expect(await store.upsertSeen(acme, 'K-2', {})).toBe('created');
    expect(await only(acme, 'K-2')).toMatchObject({ name: 'K-2', email: null });
  });

  it('updates only what differs and keeps what was left out', async () => {
    await store.upsertSeen(acme, 'K-1', { name: 'Kari AS', email: 'kari@example.no' });
    const before = await only(acme, 'K-1');
    expect(await store.upsertSeen(acme, 'K-1', { name: 'Kari AS' })).toBe('unchanged');
    expect((await only(acme, 'K-1')).modified).toEqual(before.modified);

    expect(await store.upsertSeen(acme, 'K-1', { name: 'Kari Nordmann AS' })).toBe('updated');
    const after = await only(acme, 'K-1');
    expect(after).toMatchObject({ id: before.id, name: 'Kari Nordmann AS', email: 'kari@example.no' });
    expect(after.modified.getTime()).toBeGreaterThanOrEqual(before.modified.getTime());

    expect(await store.upsertSeen(acme, 'K-1', { email: 'post@example.no' })).toBe('updated');
    expect(await only(acme, 'K-1')).toMatchObject({ name: 'Kari Nordmann AS', email: 'post@example.no' });
  });

  it('draws no customer_id for events of a customer that already exists', async () => {
    await store.upsertSeen(acme, 'K-1', { name: 'Kari AS' });
    const first = await only(acme, 'K-1');
    await store.upsertSeen(acme, 'K-1', { name: 'Kari AS' });
    await store.upsertSeen(acme, 'K-1', { name: 'Kari Nordmann AS' });
    await store.upsertSeen(acme, 'K-2', { name: 'Ola AS' });
    expect(BigInt((await only(acme, 'K-2')).id)).toBe(BigInt(first.id) + 1n);
  });

  it('keeps custnr per partner', async () => {
    await store.upsertSeen(acme, 'K-1', { name: 'Acme customer' });
    expect(await store.upsertSeen(beta, 'K-1', { name: 'Beta customer' })).toBe('created');
    expect((await only(acme, 'K-1')).name).toBe('Acme customer');
    expect((await only(beta, 'K-1')).name).toBe('Beta customer');
  });

  it('refuses values the database cannot store with a ValidationError, so they are not retried', async () => {
    await expect(store.upsertSeen(acme, 'K-\u0000', { name: 'Nul AS' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(await store.list(acme, {})).toEqual([]);
  });

  it('creates one customer when two consumers see the same new custnr at once', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => store.upsertSeen(acme, 'K-9', { name: 'Same AS' })),
    );
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
    expect(await store.list(acme, { custnr: 'K-9' })).toHaveLength(1);
  });

  describe('upsertSeenMany', () => {
    it('applies a batch in one statement: creates, updates, leaves unchanged, and says which is which', async () => {
      const known = await store.upsertSeenMany(acme, [
        { custnr: 'K-1', seen: { name: 'Kari AS' } },
        { custnr: 'K-2', seen: { name: 'Ola AS', email: 'ola@example.no' } },
      ]);
      expect(known.map((row) => [row.custnr, row.outcome])).toEqual([
        ['K-1', 'created'],
        ['K-2', 'created'],
      ]);
      const k2 = await only(acme, 'K-2');
      expect(known[1]!.id).toBe(k2.id);

      const rows = await store.upsertSeenMany(acme, [
        { custnr: 'K-3', seen: { name: 'Per AS' } },
        { custnr: 'K-2', seen: { name: 'Ola AS' } },
        { custnr: 'K-1', seen: { email: 'kari@example.no' } },
        { custnr: 'K-4', seen: {} },
      ]);
      expect(rows.map((row) => [row.custnr, row.outcome])).toEqual([
        ['K-3', 'created'],
        ['K-2', 'unchanged'],
        ['K-1', 'updated'],
        ['K-4', 'created'],
      ]);
      expect(rows.find((row) => row.custnr === 'K-2')!.id).toBe(k2.id);
      expect(await only(acme, 'K-2')).toEqual(k2);
      expect(await only(acme, 'K-1')).toMatchObject({ name: 'Kari AS', email: 'kari@example.no' });
      expect(await only(acme, 'K-4')).toMatchObject({ name: 'K-4', email: null });
      // New customers draw consecutive ids in the order they were seen.
      const k3 = await only(acme, 'K-3');
      expect(BigInt((await only(acme, 'K-4')).id) - BigInt(k3.id)).toBe(1n);
    });

    it('merges sightings of one custnr in order: a later value wins, a left-out one keeps the earlier', async () => {
      const rows = await store.upsertSeenMany(acme, [
        { custnr: 'K-1', seen: { name: 'Kari', email: 'kari@example.no' } },
        { custnr: 'K-2', seen: { name: 'Ola' } },
        { custnr: 'K-1', seen: { name: 'Kari Nordmann' } },
      ]);
      expect(rows.map((row) => [row.custnr, row.outcome])).toEqual([
        ['K-1', 'created'],
        ['K-2', 'created'],
      ]);
      expect(await only(acme, 'K-1')).toMatchObject({ name: 'Kari Nordmann', email: 'kari@example.no' });
    });

    it('writes nothing for a batch of unchanged customers', async () => {
      await store.upsertSeenMany(acme, [{ custnr: 'K-1', seen: { name: 'Kari AS' } }]);
      const before = await only(acme, 'K-1');
      const [{ xmin: xminBefore }] = (await dataSource.query(
        `SELECT xmin::text FROM customers WHERE custnr = 'K-1'`,
      )) as Array<{ xmin: string }>;
      const rows = await store.upsertSeenMany(acme, [
        { custnr: 'K-1', seen: { name: 'Kari AS' } },
        { custnr: 'K-1', seen: {} },
      ]);
      expect(rows).toEqual([{ custnr: 'K-1', id: before.id, outcome: 'unchanged' }]);
      const [{ xmin: xminAfter }] = (await dataSource.query(
        `SELECT xmin::text FROM customers WHERE custnr = 'K-1'`,
      )) as Array<{ xmin: string }>;
      expect(xminAfter).toBe(xminBefore);
      expect(await only(acme, 'K-1')).toEqual(before);
    });

    it('creates each customer once when two consumers apply overlapping batches at once', async () => {
      const batch = (name: string) => [
        { custnr: 'K-7', seen: { name } },
        { custnr: 'K-8', seen: { name } },
      ];
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => store.upsertSeenMany(acme, batch(`Same ${i % 2}`))),
      );
      const created = results.flat().filter((row) => row.outcome === 'created');
      expect(created.map((row) => row.custnr).sort()).toEqual(['K-7', 'K-8']);
      expect(await store.list(acme, { custnr: 'K-7' })).toHaveLength(1);
      expect(results.flat().every((row) => row.id !== '')).toBe(true);
    });
  });
});

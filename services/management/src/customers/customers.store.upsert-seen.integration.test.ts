import { ValidationError } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../db/data-source';
import { TypeormCustomersStore } from './customers.store';
import { insertTestPartners } from '../testing/test-partners';

// upsertSeen: the customer-seen consumer's one write (SPEC §3), on the real table and unique index.
describe('TypeormCustomersStore.upsertSeen', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormCustomersStore;
  let acme: string;
  let beta: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.url);
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
});

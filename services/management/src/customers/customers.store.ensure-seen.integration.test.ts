import { ValidationError } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { insertTestPartners } from '../test-support/test-partners';
import { TypeormCustomersStore } from './customers.store';
import { untilBlockedOnLock } from '../test-support/lock-waits';

// ensureSeen: CDR ingestion's create-on-ingest (docs/cdrs.md), racing the customer-seen consumer.
describe('TypeormCustomersStore.ensureSeen', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormCustomersStore;
  let acme: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = new TypeormCustomersStore(dataSource.manager);
    [acme] = await insertTestPartners(dataSource.manager, 'acme');
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(async () => {
    await dataSource.query('DELETE FROM customers');
  });

  it('creates a missing customer as the stream would and answers its id', async () => {
    const { id, created } = await store.ensureSeen(acme!, 'D-1', {
      name: 'Ola Bil AS',
      email: 'ola@example.no',
    });
    expect(created).toBe(true);
    const [customer] = await store.list(acme!, { custnr: 'D-1' });
    expect(customer).toMatchObject({ id, custnr: 'D-1', name: 'Ola Bil AS', email: 'ola@example.no' });
    // Without a name the custnr names it, as upsertSeen does.
    const unnamed = await store.ensureSeen(acme!, 'D-2', {});
    expect(await store.findById(acme!, unnamed.id)).toMatchObject({ name: 'D-2', email: null });
  });

  it('answers an existing customer without changing it', async () => {
    await store.upsertSeen(acme!, 'D-1', { name: 'Current name' });
    const [before] = await store.list(acme!, { custnr: 'D-1' });
    expect(await store.ensureSeen(acme!, 'D-1', { name: 'Older name', email: 'x@example.no' })).toEqual({
      id: before!.id,
      created: false,
    });
    expect(await store.findById(acme!, before!.id)).toEqual(before);
  });

  it('creates exactly one customer when ingestion and the consumer race on a new custnr', async () => {
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => store.ensureSeen(acme!, 'D-9', { name: 'Race AS' })),
      ...Array.from({ length: 6 }, () => store.upsertSeen(acme!, 'D-9', { name: 'Race AS' })),
    ]);
    const customers = await store.list(acme!, { custnr: 'D-9' });
    expect(customers).toHaveLength(1);
    const ensured = results.slice(0, 6) as Array<{ id: string; created: boolean }>;
    expect(new Set(ensured.map((result) => result.id))).toEqual(new Set([customers[0]!.id]));
    // Whoever inserted it reports the creation; at most one ensureSeen call can have.
    expect(ensured.filter((result) => result.created).length).toBeLessThanOrEqual(1);
  });

  it('yields to a consumer insert that commits while it waits', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await new TypeormCustomersStore(runner.manager).upsertSeen(acme!, 'D-5', { name: 'First AS' });
      const waiting = store.ensureSeen(acme!, 'D-5', { name: 'Second AS' });
      await untilBlockedOnLock(dataSource);
      await runner.commitTransaction();
      const { id, created } = await waiting;
      expect(created).toBe(false);
      expect(await store.findById(acme!, id)).toMatchObject({ custnr: 'D-5', name: 'First AS' });
    } finally {
      await runner.release();
    }
  });

  it('refuses values the database cannot store with a ValidationError', async () => {
    await expect(store.ensureSeen(acme!, 'D-\u0000', {})).rejects.toBeInstanceOf(ValidationError);
  });
});

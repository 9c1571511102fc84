import { ValidationError } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { typeormUnitOfWork } from '../db/unit-of-work';
import type { CustomerValues } from './customer';
import { TypeormCustomersStore } from './customers.store';
import { insertTestPartners } from '../test-support/test-partners';
import { customersStoreCases } from './customers.store.cases';
import { onOwnDatabase } from '../test-support/store-case-fixtures';
import { untilBlockedOnLock } from '../test-support/lock-waits';

function values(overrides: Partial<CustomerValues> = {}): CustomerValues {
  return {
    name: 'Ola Nordmann AS',
    custnr: 'K-1',
    corporateid: null,
    email: null,
    dncsClassName: null,
    receiveMonthlyReport: false,
    serviceCallerId: false,
    customFields: {},
    ...overrides,
  };
}

describe('TypeormCustomersStore', () => {
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

  it('lists monthly report recipients in id order as numbers, not as text', async () => {
    // Ids set so that a text sort (10, 100, 11, 9) and a numeric one (9, 10, 11, 100) differ.
    for (const id of ['100', '9', '11', '10']) {
      await dataSource.query(
        `INSERT INTO customers (id, partner_id, name, custnr, email, receive_monthly_report)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, 'Kari', $3, $4, true)`,
        [id, acme, `K-${id}`, `k${id}@example.no`],
      );
    }
    const recipients = await store.monthlyReportRecipients(acme);
    expect(recipients.map((recipient) => recipient.customerId)).toEqual(['9', '10', '11', '100']);
  });

  it('stores every field and generates id, uuid and timestamps', async () => {
    const inserted = await store.insert(
      acme,
      values({
        corporateid: '987654321',
        email: 'post@example.no',
        dncsClassName: 'premium',
        receiveMonthlyReport: true,
        serviceCallerId: true,
        customFields: { custom_1: 'gold', custom_2: null },
      }),
    );
    expect(inserted.id).toMatch(/^[1-9]\d*$/);
    expect(inserted.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(inserted.created).toBeInstanceOf(Date);
    expect(await store.findById(acme, inserted.id)).toEqual(inserted);
    expect(inserted).toMatchObject({
      partnerId: acme,
      name: 'Ola Nordmann AS',
      custnr: 'K-1',
      corporateid: '987654321',
      email: 'post@example.no',
      dncsClassName: 'premium',
      receiveMonthlyReport: true,
      serviceCallerId: true,
      customFields: { custom_1: 'gold', custom_2: null },
    });
  });

  it('keeps custnr unique per partner only', async () => {
    await store.insert(acme, values());
    const error = await store.insert(acme, values({ name: 'other' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'custnr' });
    await expect(store.insert(beta, values())).resolves.toMatchObject({ custnr: 'K-1', partnerId: beta });
  });

  it('never finds, changes or deletes another partner’s customer', async () => {
    const customer = await store.insert(acme, values());
    expect(await store.findById(beta, customer.id)).toBeNull();
    expect(await store.update(beta, customer.id, { name: 'stolen' })).toBeNull();
    await store.delete(beta, customer.id);
    expect(await store.findById(acme, customer.id)).toEqual(customer);
    expect(await store.list(beta, {})).toEqual([]);
  });

  it('lists in id order and filters by custnr', async () => {
    const first = await store.insert(acme, values({ custnr: 'K-1' }));
    const second = await store.insert(acme, values({ custnr: 'K-2' }));
    await store.insert(beta, values({ custnr: 'K-2' }));
    expect((await store.list(acme, {})).map((customer) => customer.id)).toEqual([first.id, second.id]);
    expect((await store.list(acme, { custnr: 'K-2' })).map((customer) => customer.id)).toEqual([second.id]);
  });

  it('updates the given columns, merges custom fields and moves modified', async () => {
    const customer = await store.insert(
      acme,
      values({ email: 'a@example.no', customFields: { custom_1: 'one', custom_2: 'two' } }),
    );
    const updated = await store.update(acme, customer.id, {
      name: 'renamed',
      email: null,
      customFields: { custom_2: null, custom_3: 'three' },
    });
    expect(updated).toMatchObject({
      name: 'renamed',
      custnr: 'K-1',
      email: null,
      customFields: { custom_1: 'one', custom_2: null, custom_3: 'three' },
    });
    expect(updated!.modified.getTime()).toBeGreaterThanOrEqual(customer.modified.getTime());
    expect(updated!.created).toEqual(customer.created);
  });

  it('keeps two concurrent custom field updates', async () => {
    const customer = await store.insert(acme, values());
    await Promise.all([
      store.update(acme, customer.id, { customFields: { custom_1: 'one' } }),
      store.update(acme, customer.id, { customFields: { custom_2: 'two' } }),
    ]);
    expect((await store.findById(acme, customer.id))!.customFields).toEqual({
      custom_1: 'one',
      custom_2: 'two',
    });
  });

  it('refuses a custnr update onto a taken one', async () => {
    await store.insert(acme, values({ custnr: 'K-1' }));
    const second = await store.insert(acme, values({ custnr: 'K-2' }));
    await expect(store.update(acme, second.id, { custnr: 'K-1' })).rejects.toMatchObject({ field: 'custnr' });
  });

  it('locks the row inside a unit of work until it ends', async () => {
    const customer = await store.insert(acme, values());
    const unitOfWork = typeormUnitOfWork(dataSource, (manager) => new TypeormCustomersStore(manager));
    const events: string[] = [];
    let releaseLock!: () => void;
    const lockHeld = new Promise<void>((resolve) => (releaseLock = resolve));
    let lockTaken!: () => void;
    const taken = new Promise<void>((resolve) => (lockTaken = resolve));

    const holder = unitOfWork.run(async (customers) => {
      await customers.findById(acme, customer.id, { lock: true });
      lockTaken();
      await lockHeld;
      events.push('holder done');
    });
    await taken;
    const waiter = store
      .update(acme, customer.id, { name: 'after lock' })
      .then(() => events.push('update done'));
    await untilBlockedOnLock(dataSource);
    releaseLock();
    await Promise.all([holder, waiter]);
    expect(events).toEqual(['holder done', 'update done']);
  });

  it('deletes', async () => {
    const customer = await store.insert(acme, values());
    await store.delete(acme, customer.id);
    expect(await store.findById(acme, customer.id)).toBeNull();
  });
});

describe('TypeormCustomersStore, the cases its fake passes too', () => {
  customersStoreCases(
    onOwnDatabase(async ({ manager }) => {
      let partners = 0;
      return {
        store: new TypeormCustomersStore(manager),
        newPartner: async () => (await insertTestPartners(manager, `case-${++partners}`))[0]!,
      };
    }),
  );
});

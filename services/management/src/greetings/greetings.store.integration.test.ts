import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { TypeormCustomersStore } from '../customers/customers.store';
import { createManagementDataSource } from '../composition/management-data-source';
import { typeormUnitOfWork } from '../db/unit-of-work';
import { TypeormGreetingsStore } from './greetings.store';
import { insertTestPartners } from '../test-support/test-partners';
import { greetingsStoreCases } from './greetings.store.cases';
import { insertTestCustomer, onOwnDatabase } from '../test-support/store-case-fixtures';
import { untilBlockedOnLock } from '../test-support/lock-waits';

describe('TypeormGreetingsStore', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormGreetingsStore;
  let acme: string;
  let beta: string;
  let customer: string;
  let betaCustomer: string;
  const now = new Date('2026-02-03T04:05:06Z');

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = new TypeormGreetingsStore(dataSource.manager);
    [acme, beta] = await insertTestPartners(dataSource.manager, 'acme', 'beta');
    const customers = new TypeormCustomersStore(dataSource.manager);
    const values = {
      name: 'Kari',
      corporateid: null,
      email: null,
      dncsClassName: null,
      receiveMonthlyReport: false,
      serviceCallerId: false,
      customFields: {},
    };
    customer = (await customers.insert(acme, { ...values, custnr: 'K1' })).id;
    betaCustomer = (await customers.insert(beta, { ...values, custnr: 'K1' })).id;
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('inserts a placeholder and refuses a PIN another unrecorded greeting holds, in any partner', async () => {
    const first = await store.insert(acme, { customerId: customer, name: 'Welcome', recordPin: '111111' });
    expect(first).toMatchObject({
      customerId: customer,
      name: 'Welcome',
      recordPin: '111111',
      datalength: null,
    });
    expect(
      await store.insert(beta, { customerId: betaCustomer, name: 'Other', recordPin: '111111' }),
    ).toBeNull();
  });

  it('stores a recording as bytes, frees its PIN, and reads the audio only when asked', async () => {
    const greeting = (await store.insert(acme, {
      customerId: customer,
      name: 'Closed',
      recordPin: '222222',
    }))!;
    const audio = Buffer.from([0, 255, 1, 254, 0]);
    const recorded = await store.saveRecording('222222', audio, now);
    expect(recorded).toMatchObject({ id: greeting.id, datalength: 5, recorded: now });
    expect(await store.saveRecording('222222', Buffer.from('again'), now)).toBeNull();

    const withSound = await store.findById(acme, customer, greeting.id, { withSound: true });
    expect(withSound!.sounddata).toEqual(audio);
    expect((await store.findById(acme, customer, greeting.id))!.sounddata).toBeNull();
    const [row] = await dataSource.query(
      'SELECT octet_length(sounddata) AS bytes FROM voicemail_greetings WHERE id = $1',
      [greeting.id],
    );
    expect(row.bytes).toBe(5);

    const reused = await store.insert(beta, { customerId: betaCustomer, name: 'Reuse', recordPin: '222222' });
    expect(reused).not.toBeNull();
  });

  it('keeps partners and customers apart', async () => {
    const greeting = (await store.insert(acme, { customerId: customer, name: 'Mine', recordPin: '333333' }))!;
    expect(await store.findById(beta, customer, greeting.id)).toBeNull();
    expect(await store.findById(acme, betaCustomer, greeting.id)).toBeNull();
    expect((await store.list(beta, betaCustomer)).map((g) => g.name)).toEqual(['Reuse']);
    await store.delete(beta, greeting.id);
    expect(await store.findById(acme, customer, greeting.id)).not.toBeNull();
  });

  it('locks the row inside a unit of work, and deletes', async () => {
    const greeting = (await store.insert(acme, { customerId: customer, name: 'Lock', recordPin: '444444' }))!;
    const unitOfWork = typeormUnitOfWork(dataSource, (manager) => new TypeormGreetingsStore(manager));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const events: string[] = [];
    const holder = unitOfWork.run(async (greetings) => {
      await greetings.findById(acme, customer, greeting.id, { lock: true });
      locked();
      await held;
      events.push('holder');
    });
    await taken;
    const recording = store
      .saveRecording('444444', Buffer.from('x'), now)
      .then(() => events.push('recording'));
    await untilBlockedOnLock(dataSource);
    release();
    await Promise.all([holder, recording]);
    expect(events).toEqual(['holder', 'recording']);
    await store.delete(acme, greeting.id);
    expect(await store.findById(acme, customer, greeting.id)).toBeNull();
  });
});

describe('TypeormGreetingsStore, the cases its fake passes too', () => {
  greetingsStoreCases(
    onOwnDatabase(async ({ manager }) => {
      const [partnerId, otherPartnerId] = await insertTestPartners(manager, 'acme', 'beta');
      let count = 0;
      return {
        store: new TypeormGreetingsStore(manager),
        partnerId: partnerId!,
        otherPartnerId: otherPartnerId!,
        newCustomer: (owner) => insertTestCustomer(manager, owner, `C-${++count}`),
      };
    }),
  );
});

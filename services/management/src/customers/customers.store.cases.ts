import { ValidationError } from '@trackline/domain';
import type { CustomerValues } from './customer';
import type { CustomersStore } from './customers.store';

/** What a customers store case needs: a store and a way to make partners with no customers yet. */
export interface CustomersStoreFixture {
  store: CustomersStore;
  newPartner(): Promise<string>;
}

function values(overrides: Partial<CustomerValues> = {}): CustomerValues {
  return {
    name: 'Kari AS',
    custnr: 'K-1',
    corporateid: '912345678',
    email: 'kari@example.no',
    dncsClassName: null,
    receiveMonthlyReport: true,
    serviceCallerId: false,
    customFields: { custom_1: 'one' },
    ...overrides,
  };
}

/**
 * The cases every CustomersStore passes, the fake as the real one (the real store's integration test
 * and the fake's unit test both call this), so the fake cannot drift from the database.
 */
export function customersStoreCases(setup: () => Promise<CustomersStoreFixture>): void {
  let fixture: CustomersStoreFixture;

  beforeAll(async () => {
    fixture = await setup();
  });

  it('inserts a customer and finds it for its partner only', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner();
    const otherPartnerId = await fixture.newPartner();
    const customer = await store.insert(partnerId, values());
    expect(customer).toMatchObject({ ...values(), partnerId });
    expect(customer.id).toMatch(/^[1-9]\d*$/);
    expect(customer.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await store.findById(partnerId, customer.id)).toEqual(customer);
    expect(await store.findById(otherPartnerId, customer.id)).toBeNull();
    expect(await store.update(otherPartnerId, customer.id, { name: 'stolen' })).toBeNull();
    await store.delete(otherPartnerId, customer.id);
    expect(await store.findById(partnerId, customer.id)).toEqual(customer);
  });

  it('keeps custnr unique per partner only, on insert and on update', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner();
    await store.insert(partnerId, values({ custnr: 'K-1' }));
    const taken = await store.insert(partnerId, values({ custnr: 'K-1' })).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(ValidationError);
    expect(taken).toMatchObject({ field: 'custnr' });
    await expect(store.insert(await fixture.newPartner(), values({ custnr: 'K-1' }))).resolves.toMatchObject({
      custnr: 'K-1',
    });
    const second = await store.insert(partnerId, values({ custnr: 'K-2' }));
    await expect(store.update(partnerId, second.id, { custnr: 'K-1' })).rejects.toMatchObject({
      field: 'custnr',
    });
  });

  it('lists in id order, filters by custnr, updates the given columns, merges custom fields and deletes', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner();
    const first = await store.insert(partnerId, values({ custnr: 'A' }));
    const second = await store.insert(partnerId, values({ custnr: 'B' }));
    expect((await store.list(partnerId, {})).map((customer) => customer.id)).toEqual([first.id, second.id]);
    expect((await store.list(partnerId, { custnr: 'B' })).map((customer) => customer.id)).toEqual([
      second.id,
    ]);
    const updated = await store.update(partnerId, first.id, {
      email: null,
      customFields: { custom_2: 'two' },
    });
    expect(updated).toMatchObject({
      ...values({ custnr: 'A' }),
      email: null,
      customFields: { custom_1: 'one', custom_2: 'two' },
    });
    await store.delete(partnerId, first.id);
    expect((await store.list(partnerId, {})).map((customer) => customer.id)).toEqual([second.id]);
  });

  it('creates a seen customer named by its custnr, then updates or leaves it', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner();
    expect(await store.upsertSeen(partnerId, 'S-1', {})).toBe('created');
    expect(await store.list(partnerId, { custnr: 'S-1' })).toEqual([
      expect.objectContaining({ name: 'S-1', email: null, corporateid: null, receiveMonthlyReport: false }),
    ]);
    expect(await store.upsertSeen(partnerId, 'S-1', { name: 'S-1' })).toBe('unchanged');
    expect(await store.upsertSeen(partnerId, 'S-1', { email: 'seen@example.no' })).toBe('updated');
    expect(await store.list(partnerId, { custnr: 'S-1' })).toEqual([
      expect.objectContaining({ name: 'S-1', email: 'seen@example.no' }),
    ]);
    const ensured = await store.ensureSeen(partnerId, 'S-2', { name: 'Two' });
    expect(ensured.created).toBe(true);
    expect(await store.ensureSeen(partnerId, 'S-2', { name: 'Changed' })).toEqual({
      id: ensured.id,
      created: false,
    });
    expect((await store.findById(partnerId, ensured.id))?.name).toBe('Two');
  });

  it('upserts a batch of sightings, merged per custnr in order of first sighting', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner();
    await store.upsertSeen(partnerId, 'B-2', { name: 'Old' });
    const rows = await store.upsertSeenMany(partnerId, [
      { custnr: 'B-1', seen: { name: 'One' } },
      { custnr: 'B-2', seen: { name: 'New' } },
      { custnr: 'B-1', seen: { email: 'one@example.no' } },
      { custnr: 'B-3', seen: {} },
    ]);
    expect(rows.map(({ custnr, outcome }) => [custnr, outcome])).toEqual([
      ['B-1', 'created'],
      ['B-2', 'updated'],
      ['B-3', 'created'],
    ]);
    const listed = await store.list(partnerId, {});
    expect(listed.map(({ custnr, name, email }) => [custnr, name, email])).toEqual([
      ['B-2', 'New', null],
      ['B-1', 'One', 'one@example.no'],
      ['B-3', 'B-3', null],
    ]);
    expect(rows.map((row) => row.id).sort()).toEqual(listed.map((customer) => customer.id).sort());
  });
}

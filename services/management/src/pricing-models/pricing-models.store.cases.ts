import { parsePricingConditions } from '@trackline/domain';
import type { PricingModelValues } from './pricing-model';
import type { PricingModelsStore } from './pricing-models.store';

/** What a pricing models store case needs: a store and two partners. */
export interface PricingModelsStoreFixture {
  store: PricingModelsStore;
  /** A new partner with no models yet; answers its id. */
  newPartner(): Promise<string>;
}

export const WEEKDAYS = {
  cost_per_lead: '12.50',
  min_duration: '30',
  from_time: '08:00',
  to_time: '16:00',
  weekdays: 'mon,tue,wed,thu,fri',
};
export const SUNDAY = {
  cost_per_lead: '0.10',
  min_duration: '0',
  from_time: '00:00',
  to_time: '24:00',
  weekdays: 'sun',
};

/** A model with a weekday and a Sunday condition; the cases' and the integration test's. */
export function pricingModelValues(overrides: Partial<PricingModelValues> = {}): PricingModelValues {
  return {
    name: 'Standard',
    type: '0',
    uniqueCallerSeconds: 3600,
    conditions: parsePricingConditions('conditions', [WEEKDAYS, SUNDAY]),
    ...overrides,
  };
}

/**
 * The cases every PricingModelsStore passes, the fake as the real one (the real store's integration
 * test and the fake's unit test both call this), so the fake cannot drift from the database.
 */
export function pricingModelsStoreCases(setup: () => Promise<PricingModelsStoreFixture>): void {
  let fixture: PricingModelsStoreFixture;

  beforeAll(async () => {
    fixture = await setup();
  });

  it('stores a model under a UUID and reads it back', async () => {
    const partnerId = await fixture.newPartner();
    const model = await fixture.store.insert(partnerId, pricingModelValues());
    expect(model).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      partnerId,
      ...pricingModelValues(),
      created: expect.any(Date),
      modified: expect.any(Date),
    });
    expect(await fixture.store.findById(partnerId, model.id)).toEqual(model);
  });

  it('never finds, changes or deletes another partner’s model', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner();
    const otherPartnerId = await fixture.newPartner();
    const model = await store.insert(partnerId, pricingModelValues({ name: 'Private' }));
    expect(await store.findById(otherPartnerId, model.id)).toBeNull();
    expect(await store.update(otherPartnerId, model.id, { name: 'stolen' })).toBeNull();
    await store.delete(otherPartnerId, model.id);
    expect(await store.findById(partnerId, model.id)).toEqual(model);
    expect(await store.list(otherPartnerId)).toEqual([]);
  });

  it('lists oldest first, updates only the columns given, and deletes', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner();
    const first = await store.insert(partnerId, pricingModelValues({ name: 'First' }));
    const second = await store.insert(partnerId, pricingModelValues({ name: 'Second' }));
    expect((await store.list(partnerId)).map((model) => model.id)).toEqual([first.id, second.id]);
    const conditions = parsePricingConditions('conditions', [SUNDAY]);
    const updated = await store.update(partnerId, first.id, { name: 'After', conditions });
    expect(updated).toMatchObject({ name: 'After', uniqueCallerSeconds: 3600, conditions });
    expect(await store.update(partnerId, first.id, { uniqueCallerSeconds: 60 })).toMatchObject({
      name: 'After',
      uniqueCallerSeconds: 60,
      conditions,
    });
    await store.delete(partnerId, first.id);
    expect((await store.list(partnerId)).map((model) => model.id)).toEqual([second.id]);
    expect(await store.findById(partnerId, first.id)).toBeNull();
  });
}

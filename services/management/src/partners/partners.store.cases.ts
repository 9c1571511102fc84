import { ValidationError } from '@trackline/domain';
import { testPartnerValues } from '../test-support/test-partners';
import type { PartnersStore } from './partners.store';

/**
 * The cases every PartnersStore passes, the fake as the real one (the real store's integration test
 * and the fake's unit test both call this), so the fake cannot drift from the database. Names are
 * prefixed so the cases share a store with other tests.
 */
export function partnersStoreCases(setup: () => Promise<PartnersStore>): void {
  let store: PartnersStore;

  beforeAll(async () => {
    store = await setup();
  });

  it('inserts a partner and finds it by name and by username, call settings defaulted', async () => {
    const { calls: _calls, ...values } = testPartnerValues('case-one');
    const inserted = await store.insert(values);
    expect(inserted).toMatchObject({
      ...values,
      calls: { ringTimeoutSeconds: null, screenCalls: false },
      customFields: { customer: [], source: [] },
    });
    expect(inserted.id).toMatch(/^[1-9]\d*$/);
    expect(await store.findByName('case-one')).toEqual(inserted);
    expect(await store.findByUsername('case-one-api')).toEqual(inserted);
    expect(await store.findByName('case-nobody')).toBeNull();
    expect(await store.findByUsername('case-nobody')).toBeNull();
  });

  it('refuses a taken name or username with a validation error naming it', async () => {
    await store.insert(testPartnerValues('case-taken'));
    const name = await store
      .insert({ ...testPartnerValues('case-taken'), digestUsername: 'case-other' })
      .catch((error: unknown) => error);
    expect(name).toBeInstanceOf(ValidationError);
    expect(name).toMatchObject({ field: 'name' });
    const username = await store
      .insert({ ...testPartnerValues('case-free'), digestUsername: 'case-taken-api' })
      .catch((error: unknown) => error);
    expect(username).toBeInstanceOf(ValidationError);
    expect(username).toMatchObject({ field: 'username' });
    expect(await store.findByName('case-free')).toBeNull();
  });

  it('updates only the given columns', async () => {
    const partner = await store.insert(testPartnerValues('case-update'));
    const updated = await store.update(partner.id, {
      timeZone: 'UTC',
      dni: { ...partner.dni, holdBackSeconds: 120 },
    });
    expect(updated).toMatchObject({
      name: 'case-update',
      timeZone: 'UTC',
      signingSecret: partner.signingSecret,
      dni: { ...partner.dni, holdBackSeconds: 120 },
    });
    expect(await store.findByName('case-update')).toEqual(updated);
    await store.insert(testPartnerValues('case-update-2'));
    await expect(store.update(partner.id, { digestUsername: 'case-update-2-api' })).rejects.toMatchObject({
      field: 'username',
    });
  });

  it('keeps a rate limit of its own, none (0) or the default (null, also when left out)', async () => {
    const partner = await store.insert(testPartnerValues('case-rate'));
    expect(partner.rateLimitPerMinute).toBeNull();
    for (const limit of [120, 0, null]) {
      expect((await store.update(partner.id, { rateLimitPerMinute: limit })).rateLimitPerMinute).toBe(limit);
      expect((await store.findByName('case-rate'))?.rateLimitPerMinute).toBe(limit);
    }
    const own = await store.insert({ ...testPartnerValues('case-rate-own'), rateLimitPerMinute: 3000 });
    expect([
      own.rateLimitPerMinute,
      (await store.findByUsername('case-rate-own-api'))?.rateLimitPerMinute,
    ]).toEqual([3000, 3000]);
  });

  it('defines a custom field once per entity, and lists partners in id order with their fields', async () => {
    const first = await store.insert(testPartnerValues('case-fields-1'));
    const second = await store.insert(testPartnerValues('case-fields-2'));
    expect(await store.addCustomField(first.id, 'customer', 'custom_1')).toBe(true);
    expect(await store.addCustomField(first.id, 'customer', 'custom_1')).toBe(false);
    expect(await store.addCustomField(first.id, 'source', 'custom_2')).toBe(true);
    expect(await store.addCustomField(second.id, 'customer', 'custom_1')).toBe(true);
    expect((await store.findByName('case-fields-1'))!.customFields).toEqual({
      customer: ['custom_1'],
      source: ['custom_2'],
    });
    const listed = (await store.list()).filter((partner) => partner.name.startsWith('case-fields-'));
    expect(listed.map((partner) => [partner.name, partner.customFields])).toEqual([
      ['case-fields-1', { customer: ['custom_1'], source: ['custom_2'] }],
      ['case-fields-2', { customer: ['custom_1'], source: [] }],
    ]);
    const ids = (await store.list()).map((partner) => Number(partner.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
}

import { holdBackEnd } from '../numbers/tracking-number';
import type { NewSource } from './source';
import type { SourcesStore } from './sources.store';

/** What a sources store case needs: a store, two partners, and a way to make customers and numbers. */
export interface SourcesStoreFixture {
  store: SourcesStore;
  partnerId: string;
  otherPartnerId: string;
  /** A new customer of `partnerId`, with no sources yet. */
  newCustomer(): Promise<string>;
  /** A static number of `partnerId`'s inventory no source uses yet. */
  newNumber(): Promise<string>;
  /** What closing a source does to its number (the numbers feature's hold-back), as the service does. */
  holdBack(e164: string, until: Date): Promise<void>;
}

const NOW = new Date('2026-03-02T10:00:00.000Z');

/** An open source's values on the given number; the cases' and the integration test's. */
export function sourceValues(
  customerId: string,
  destnr: string,
  overrides: Partial<NewSource> = {},
): NewSource {
  return {
    customerId,
    name: 'Front page',
    media: 'web',
    phonenr: '+4722334455',
    destnr,
    campaignId: null,
    publisherId: 'pub',
    email: 'a@example.no',
    smsnumber: '+4791234567',
    vmGreetingId: null,
    sourceClass: 'standard',
    activatedAt: NOW,
    notifyOnMissedCall: true,
    notifyOnNewVoicemail: false,
    vmDivertAll: false,
    vmDivertBusy: true,
    vmDivertNoanswer: false,
    altNumbers: [
      { phonenr: 'voicemail', weekdays: ['sat', 'sun'], fromMinute: 0, toMinute: 1440, altKey: 'weekend' },
    ],
    customFields: { custom_1: 'one' },
    ...overrides,
  };
}

/**
 * The cases every SourcesStore passes, the fake as the real one (the real store's integration test
 * and the fake's unit test both call this), so the fake cannot drift from the database.
 */
export function sourcesStoreCases(setup: () => Promise<SourcesStoreFixture>): void {
  let fixture: SourcesStoreFixture;

  beforeAll(async () => {
    fixture = await setup();
  });

  async function newSource(customerId: string, overrides: Partial<NewSource> = {}): Promise<NewSource> {
    return sourceValues(customerId, await fixture.newNumber(), overrides);
  }

  it('inserts an open source and reads it back, for its partner only', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const input = await newSource(await fixture.newCustomer());
    const source = await store.insert(partnerId, input);
    expect(source).toMatchObject({ ...input, partnerId, status: 'active', closedAt: null });
    expect(await store.findById(partnerId, source.id)).toEqual(source);
    expect(await store.findById(otherPartnerId, source.id)).toBeNull();
  });

  it('updates the given columns, keeps the others, replaces alt rules and merges custom fields', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const source = await store.insert(partnerId, await newSource(await fixture.newCustomer()));
    const updated = await store.update(partnerId, source.id, {
      name: 'Renamed',
      altNumbers: [],
      customFields: { custom_2: 'two' },
    });
    expect(updated).toMatchObject({
      name: 'Renamed',
      media: 'web',
      altNumbers: [],
      customFields: { custom_1: 'one', custom_2: 'two' },
    });
    expect(await store.update(otherPartnerId, source.id, { name: 'stolen' })).toBeNull();
    expect((await store.findById(partnerId, source.id))?.name).toBe('Renamed');
  });

  it('closes a source for its partner only, and counts the open ones', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const first = await store.insert(partnerId, await newSource(customerId));
    await store.insert(partnerId, await newSource(customerId));
    expect(await store.countOpenSources(partnerId, customerId)).toBe(2);
    expect(await store.close(otherPartnerId, first.id, NOW)).toBeNull();
    expect(await store.close(partnerId, first.id, NOW)).toMatchObject({ status: 'closed', closedAt: NOW });
    expect(await store.countOpenSources(partnerId, customerId)).toBe(1);
    expect(await store.countOpenSources(otherPartnerId, customerId)).toBe(0);
    expect(await store.close(partnerId, '999999999', NOW)).toBeNull();
  });

  it('pages in id order, counts all, and filters by customer', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await store.insert(partnerId, await newSource(customerId))).id);
    const first = await store.page(partnerId, { page: 0, pageSize: 2, customerId });
    const second = await store.page(partnerId, { page: 1, pageSize: 2, customerId });
    expect(first.total).toBe(3);
    expect(second.total).toBe(3);
    expect([...first.sources, ...second.sources].map((source) => source.id)).toEqual(ids);
    const all = await store.page(partnerId, { page: 0, pageSize: 1000 });
    expect(all.sources.map((source) => source.id)).toEqual(
      [...all.sources.map((source) => source.id)].sort((a, b) => Number(a) - Number(b)),
    );
    expect((await store.page(otherPartnerId, { page: 0, pageSize: 1000, customerId })).total).toBe(0);
  });

  it('answers the numbers open sources ring, as phonenr or in alt rules, sorted and once each', async () => {
    const { store, partnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const alt = { weekdays: ['mon' as const], fromMinute: 0, toMinute: 60, altKey: 'k' };
    await store.insert(
      partnerId,
      await newSource(customerId, {
        phonenr: '+4723900002',
        altNumbers: [{ ...alt, phonenr: '+4723900001' }],
      }),
    );
    await store.insert(partnerId, await newSource(customerId, { phonenr: '+4723900002', altNumbers: [] }));
    const closed = await store.insert(partnerId, await newSource(customerId, { phonenr: '+4723900003' }));
    await store.close(partnerId, closed.id, NOW);
    expect(
      await store.answeringNumbersAmong(['+4723900003', '+4723900002', '+4723900001', '+4723900009']),
    ).toEqual(['+4723900001', '+4723900002']);
    expect(await store.answeringNumbersAmong([])).toEqual([]);
  });

  it("counts the customer's closed sources whose number is still held back", async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const held = await store.insert(partnerId, await newSource(customerId));
    await store.insert(partnerId, await newSource(customerId));
    expect(await store.countHeldBackSources(partnerId, customerId, NOW)).toBe(0);
    await store.close(partnerId, held.id, NOW);
    await fixture.holdBack(held.destnr, holdBackEnd(NOW));
    const later = new Date(NOW.getTime() + 60_000);
    expect(await store.countHeldBackSources(partnerId, customerId, later)).toBe(1);
    expect(await store.countHeldBackSources(otherPartnerId, customerId, later)).toBe(0);
    expect(await store.countHeldBackSources(partnerId, customerId, holdBackEnd(NOW))).toBe(0);
  });
}

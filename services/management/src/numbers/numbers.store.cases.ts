import type { NumbersStore, StaticNumberAllocator } from './numbers.store';

/** What a numbers store case needs: a store and a way to make partners with a given name. */
export interface NumbersStoreFixture {
  store: NumbersStore & StaticNumberAllocator;
  /** A new partner with this name (its advId); answers its id. */
  newPartner(name: string): Promise<string>;
}

const T0 = new Date('2026-03-02T10:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

/**
 * The cases every numbers store passes, the fake as the real one (the real store's integration test
 * and the fake's unit test both call this), so the fake cannot drift from the database.
 */
export function numbersStoreCases(setup: () => Promise<NumbersStoreFixture>): void {
  let fixture: NumbersStoreFixture;

  beforeAll(async () => {
    fixture = await setup();
  });

  it('adds all numbers or none, and names the partner holding a taken one', async () => {
    const { store } = fixture;
    const acme = await fixture.newPartner('cases-acme');
    const beta = await fixture.newPartner('cases-beta');
    expect(await store.add(acme, 'pool', ['+4792000001', '+4792000002'], T0)).toBe(true);
    expect(await store.add(beta, 'static', ['+4792000003', '+4792000002'], T0)).toBe(false);
    expect(await store.findTaken(['+4792000003', '+4792000002', '+4792000001'])).toEqual([
      { e164: '+4792000001', kind: 'pool', partnerName: 'cases-acme' },
      { e164: '+4792000002', kind: 'pool', partnerName: 'cases-acme' },
    ]);
    expect(await store.findTaken([])).toEqual([]);
    expect(await store.list(beta)).toEqual([]);
  });

  it('lists pool numbers first, each kind in number order; a static number is free from when it is added', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner('cases-list');
    await store.add(partnerId, 'static', ['+4792100002', '+4792100001'], T0);
    await store.add(partnerId, 'pool', ['+4792100004', '+4792100003'], T0);
    expect(await store.list(partnerId)).toEqual([
      {
        e164: '+4792100003',
        kind: 'pool',
        addedAt: T0,
        heldUntil: null,
        freeSince: null,
        usedBySourceId: null,
      },
      {
        e164: '+4792100004',
        kind: 'pool',
        addedAt: T0,
        heldUntil: null,
        freeSince: null,
        usedBySourceId: null,
      },
      {
        e164: '+4792100001',
        kind: 'static',
        addedAt: T0,
        heldUntil: null,
        freeSince: T0,
        usedBySourceId: null,
      },
      {
        e164: '+4792100002',
        kind: 'static',
        addedAt: T0,
        heldUntil: null,
        freeSince: T0,
        usedBySourceId: null,
      },
    ]);
    expect(await store.poolNumbers(partnerId)).toEqual(['+4792100003', '+4792100004']);
  });

  it('claims the static number free longest, skips held-back ones, and answers null when none is free', async () => {
    const { store } = fixture;
    const partnerId = await fixture.newPartner('cases-claim');
    await store.add(partnerId, 'static', ['+4792200002'], minutes(0));
    await store.add(partnerId, 'static', ['+4792200001'], minutes(1));
    await store.add(partnerId, 'pool', ['+4792200009'], minutes(0));
    expect(await store.claimStaticNumber(partnerId, minutes(0))).toBe('+4792200002');
    // Added after `now`: not free yet.
    expect(await store.claimStaticNumber(partnerId, minutes(0))).toBeNull();
    await store.holdBack(partnerId, '+4792200002', minutes(30));
    expect(await store.claimStaticNumber(partnerId, minutes(10))).toBe('+4792200001');
    expect(await store.claimStaticNumber(partnerId, minutes(20))).toBeNull();
    expect((await store.list(partnerId)).find((number) => number.e164 === '+4792200002')).toMatchObject({
      heldUntil: minutes(30),
      freeSince: minutes(30),
    });
    expect(await store.claimStaticNumber(partnerId, minutes(30))).toBe('+4792200002');
    expect(await store.claimStaticNumber(partnerId, minutes(40))).toBeNull();
  });
}

import type { GreetingsStore } from './greetings.store';

/** What a greetings store case needs: a store, two partners and a way to make their customers. */
export interface GreetingsStoreFixture {
  store: GreetingsStore;
  partnerId: string;
  otherPartnerId: string;
  /** A new customer of the given partner, with no greetings yet. */
  newCustomer(partnerId: string): Promise<string>;
}

const RECORDED_AT = new Date('2026-03-02T10:00:00.000Z');

/**
 * The cases every GreetingsStore passes, the fake as the real one (the real store's integration test
 * and the fake's unit test both call this), so the fake cannot drift from the database.
 */
export function greetingsStoreCases(setup: () => Promise<GreetingsStoreFixture>): void {
  let fixture: GreetingsStoreFixture;

  beforeAll(async () => {
    fixture = await setup();
  });

  it('inserts greetings waiting for their recording and finds them for their partner and customer only', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer(partnerId);
    const first = await store.insert(partnerId, { customerId, name: 'Closed', recordPin: '500001' });
    const second = await store.insert(partnerId, { customerId, name: 'Lunch', recordPin: '500002' });
    expect(first).toMatchObject({
      partnerId,
      customerId,
      name: 'Closed',
      recordPin: '500001',
      datalength: null,
      recorded: null,
    });
    expect(await store.list(partnerId, customerId)).toEqual([first, second]);
    expect(await store.findById(partnerId, customerId, first!.id)).toEqual({ ...first, sounddata: null });
    expect(await store.findById(otherPartnerId, customerId, first!.id)).toBeNull();
    expect(await store.findById(partnerId, await fixture.newCustomer(partnerId), first!.id)).toBeNull();
    expect(await store.greetingBelongsToCustomer(partnerId, customerId, first!.id)).toBe(true);
    expect(await store.greetingBelongsToCustomer(otherPartnerId, customerId, first!.id)).toBe(false);
  });

  it('reserves a PIN while its greeting waits, for every partner, and frees it with the recording', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer(partnerId);
    const otherCustomerId = await fixture.newCustomer(otherPartnerId);
    const waiting = await store.insert(partnerId, { customerId, name: 'Waiting', recordPin: '500100' });
    expect(
      await store.insert(otherPartnerId, { customerId: otherCustomerId, name: 'x', recordPin: '500100' }),
    ).toBeNull();
    expect(await store.findWaiting('500100')).toEqual(waiting);
    const sound = Buffer.from('RIFF-audio');
    const recorded = await store.saveRecording('500100', sound, RECORDED_AT);
    expect(recorded).toEqual({ ...waiting, datalength: sound.length, recorded: RECORDED_AT });
    expect(await store.findWaiting('500100')).toBeNull();
    expect(await store.saveRecording('500100', sound, RECORDED_AT)).toBeNull();
    expect(await store.findWithSound(waiting!.id)).toEqual({ ...recorded, sounddata: sound });
    expect(
      (await store.findById(partnerId, customerId, waiting!.id, { withSound: true }))?.sounddata,
    ).toEqual(sound);
    expect(
      await store.insert(otherPartnerId, {
        customerId: otherCustomerId,
        name: 'Reused',
        recordPin: '500100',
      }),
    ).toMatchObject({ recordPin: '500100', partnerId: otherPartnerId });
  });

  it('deletes a greeting for its partner only', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer(partnerId);
    const greeting = await store.insert(partnerId, { customerId, name: 'Gone', recordPin: '500200' });
    await store.delete(otherPartnerId, greeting!.id);
    expect(await store.findWithSound(greeting!.id)).not.toBeNull();
    await store.delete(partnerId, greeting!.id);
    expect(await store.findWithSound(greeting!.id)).toBeNull();
    expect(await store.list(partnerId, customerId)).toEqual([]);
  });
}

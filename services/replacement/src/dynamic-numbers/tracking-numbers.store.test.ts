import { CachedTrackingNumbersStore, type TrackingNumbersStore } from './tracking-numbers.store';

class CountingStore implements TrackingNumbersStore {
  readonly reads: string[][] = [];
  failNext = false;

  constructor(readonly tracking: Set<string>) {}

  async trackingNumbersAmong(e164s: readonly string[]): Promise<string[]> {
    this.reads.push([...e164s]);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('Redis down');
    }
    return e164s.filter((e164) => this.tracking.has(e164));
  }
}

describe('CachedTrackingNumbersStore', () => {
  let clock: number;
  let store: CountingStore;
  let cache: CachedTrackingNumbersStore;

  beforeEach(() => {
    clock = 0;
    store = new CountingStore(new Set(['+4791000001']));
    cache = new CachedTrackingNumbersStore(store, 1000, () => clock);
  });

  it('answers the tracking numbers among those asked, reading each number once per ttl', async () => {
    expect(await cache.trackingNumbersAmong(['+4722334455', '+4791000001'])).toEqual(['+4791000001']);
    expect(await cache.trackingNumbersAmong(['+4791000001', '+4722334455', '+4722000000'])).toEqual([
      '+4791000001',
    ]);
    expect(store.reads).toEqual([['+4722334455', '+4791000001'], ['+4722000000']]);
    // A number added to the inventory is seen once the ttl has passed.
    store.tracking.add('+4722334455');
    clock = 999;
    expect(await cache.trackingNumbersAmong(['+4722334455'])).toEqual([]);
    clock = 1000;
    expect(await cache.trackingNumbersAmong(['+4722334455'])).toEqual(['+4722334455']);
  });

  it('shares one read between concurrent misses and keeps no failed read', async () => {
    const answers = await Promise.all([
      cache.trackingNumbersAmong(['+4791000001']),
      cache.trackingNumbersAmong(['+4791000001']),
    ]);
    expect(answers).toEqual([['+4791000001'], ['+4791000001']]);
    expect(store.reads).toHaveLength(1);
    store.failNext = true;
    await expect(cache.trackingNumbersAmong(['+4722111111'])).rejects.toThrow('Redis down');
    expect(await cache.trackingNumbersAmong(['+4722111111'])).toEqual([]);
    expect(store.reads).toHaveLength(3);
  });

  it('reads through when the ttl is 0', async () => {
    const direct = new CachedTrackingNumbersStore(store, 0, () => clock);
    await direct.trackingNumbersAmong(['+4791000001']);
    await direct.trackingNumbersAmong(['+4791000001']);
    expect(store.reads).toHaveLength(2);
  });
});

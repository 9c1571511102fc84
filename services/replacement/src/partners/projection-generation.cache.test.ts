import { CachedProjectionGenerationStore } from './projection-generation.cache';
import type { ProjectionGenerationStore } from './projection-generation.store';

class CountingStore implements ProjectionGenerationStore {
  reads = 0;
  complete = false;
  fail = false;
  async isComplete(): Promise<boolean> {
    this.reads++;
    if (this.fail) throw new Error('down');
    return this.complete;
  }
}

describe('CachedProjectionGenerationStore', () => {
  it('reuses one read, shared by concurrent callers, until it expires', async () => {
    let clock = 0;
    const store = new CountingStore();
    const cache = new CachedProjectionGenerationStore(store, 1000, () => clock);
    expect(await Promise.all([cache.isComplete(), cache.isComplete()])).toEqual([false, false]);
    store.complete = true;
    clock = 999;
    expect(await cache.isComplete()).toBe(false);
    expect(store.reads).toBe(1);
    clock = 1000;
    expect(await cache.isComplete()).toBe(true);
    expect(store.reads).toBe(2);
  });

  it('does not keep failures, and reads through when the cache time is 0', async () => {
    const store = new CountingStore();
    const cache = new CachedProjectionGenerationStore(store, 1000, () => 0);
    store.fail = true;
    await expect(cache.isComplete()).rejects.toThrow('down');
    store.fail = false;
    await expect(cache.isComplete()).resolves.toBe(false);
    const uncached = new CachedProjectionGenerationStore(store, 0);
    await uncached.isComplete();
    await uncached.isComplete();
    expect(store.reads).toBe(4);
  });
});

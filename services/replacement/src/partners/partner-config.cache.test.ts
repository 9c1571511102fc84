import type { PartnerConfig } from '@trackline/contracts';
import { CachedPartnerConfigStore } from './partner-config.cache';
import type { PartnerConfigStore } from './partner-config.store';

const acme = { advId: 'acme' } as PartnerConfig;

class CountingStore implements PartnerConfigStore {
  calls = 0;
  fail = false;
  async find(advId: string): Promise<PartnerConfig | null> {
    this.calls++;
    if (this.fail) throw new Error('down');
    return advId === 'acme' ? acme : null;
  }
}

describe('CachedPartnerConfigStore', () => {
  it('reuses a read (found or not) until it expires, and shares concurrent misses', async () => {
    let clock = 0;
    const store = new CountingStore();
    const cache = new CachedPartnerConfigStore(store, 1000, () => clock);
    const [a, b] = await Promise.all([cache.find('acme'), cache.find('acme')]);
    expect(a).toBe(acme);
    expect(b).toBe(acme);
    expect(await cache.find('nobody')).toBeNull();
    expect(await cache.find('nobody')).toBeNull();
    expect(store.calls).toBe(2);
    clock = 999;
    await cache.find('acme');
    expect(store.calls).toBe(2);
    clock = 1000;
    await cache.find('acme');
    expect(store.calls).toBe(3);
  });

  it('does not keep failures', async () => {
    const store = new CountingStore();
    const cache = new CachedPartnerConfigStore(store, 1000, () => 0);
    store.fail = true;
    await expect(cache.find('acme')).rejects.toThrow('down');
    store.fail = false;
    await expect(cache.find('acme')).resolves.toBe(acme);
  });

  it('reads through when the cache time is 0', async () => {
    const store = new CountingStore();
    const cache = new CachedPartnerConfigStore(store, 0);
    await cache.find('acme');
    await cache.find('acme');
    expect(store.calls).toBe(2);
  });
});

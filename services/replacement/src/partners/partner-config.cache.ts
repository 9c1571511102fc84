import type { PartnerConfig } from '@trackline/contracts';
import type { PartnerConfigStore } from './partner-config.store';

const MAX_ENTRIES = 10_000;

interface Entry {
  expiresAt: number;
  value: Promise<PartnerConfig | null>;
}

/**
 * Keeps each partner's settings for `ttlMs` (≤ 1 s) so a replacement request costs one Redis round
 * trip. Unknown partners are cached too, so probing random advIds cannot turn into Redis load.
 * Concurrent misses share one read. Failed reads are not kept. `monotonicMs` is the cache's own
 * clock (not the request's `now`, which tests move freely).
 */
export class CachedPartnerConfigStore implements PartnerConfigStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: PartnerConfigStore,
    private readonly ttlMs: number,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  find(advId: string): Promise<PartnerConfig | null> {
    if (this.ttlMs <= 0) return this.store.find(advId);
    const now = this.monotonicMs();
    const cached = this.entries.get(advId);
    if (cached !== undefined && cached.expiresAt > now) return cached.value;

    const value = this.store.find(advId);
    if (this.entries.size >= MAX_ENTRIES) this.evictOne(now);
    this.entries.set(advId, { expiresAt: now + this.ttlMs, value });
    value.catch(() => {
      if (this.entries.get(advId)?.value === value) this.entries.delete(advId);
    });
    return value;
  }

  // Drop an expired entry if there is one, else the oldest; Map keeps insertion order.
  private evictOne(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        return;
      }
    }
    const oldest = this.entries.keys().next();
    if (oldest.done !== true) this.entries.delete(oldest.value);
  }
}

import type { ProjectionGenerationStore } from './projection-generation.store';

/**
 * Keeps the marker's presence for `ttlMs` (PARTNER_CONFIG_CACHE_MS, ≤ 1 s), so probing random
 * advIds or dialling unknown numbers costs no extra round trip per request; concurrent reads share
 * one. Failures are not kept. The same bound as the partner settings' cache: a Redis that just lost
 * its data is noticed within it.
 */
export class CachedProjectionGenerationStore implements ProjectionGenerationStore {
  private cached: { expiresAt: number; value: Promise<boolean> } | null = null;

  constructor(
    private readonly store: ProjectionGenerationStore,
    private readonly ttlMs: number,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  isComplete(): Promise<boolean> {
    if (this.ttlMs <= 0) return this.store.isComplete();
    const now = this.monotonicMs();
    if (this.cached !== null && this.cached.expiresAt > now) return this.cached.value;
    const value = this.store.isComplete();
    const entry = { expiresAt: now + this.ttlMs, value };
    this.cached = entry;
    value.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return value;
  }
}

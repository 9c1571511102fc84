import { numberIndexKey } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';

/** Which of some numbers are tracking numbers of the platform (any partner's). */
export interface TrackingNumbersStore {
  /** The given numbers (E.164) that are in the global tracking-number index. */
  trackingNumbersAmong(e164s: readonly string[]): Promise<string[]>;
}

/** One HMGET on the global tracking-number → partner index that management writes. */
export class RedisTrackingNumbersStore implements TrackingNumbersStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {}

  async trackingNumbersAmong(e164s: readonly string[]): Promise<string[]> {
    if (e164s.length === 0) return [];
    let found: Array<string | null>;
    try {
      found = await this.redis.hmget(numberIndexKey(this.keyPrefix), ...e164s);
    } catch (error) {
      throw StoreUnavailableError.from(error);
    }
    return e164s.filter((_, i) => found[i] !== null);
  }
}

const MAX_ENTRIES = 10_000;

interface Entry {
  expiresAt: number;
  tracking: Promise<boolean>;
  /** The answer once the read has come back: a request whose numbers all have one awaits nothing. */
  known?: boolean;
}

/**
 * Remembers each number's answer for `ttlMs` (the partner-settings cache time, ≤ 1 s): a partner's
 * pages show the same few answering numbers again and again, so most requests pay no round trip for
 * the check. Concurrent misses share one read; failed reads are not kept. A number the operator adds
 * to the inventory is refused on pages within `ttlMs`.
 */
export class CachedTrackingNumbersStore implements TrackingNumbersStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: TrackingNumbersStore,
    private readonly ttlMs: number,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  async trackingNumbersAmong(e164s: readonly string[]): Promise<string[]> {
    if (this.ttlMs <= 0) return this.store.trackingNumbersAmong(e164s);
    const now = this.monotonicMs();
    const unknown = e164s.filter((e164) => {
      const entry = this.entries.get(e164);
      return entry === undefined || entry.expiresAt <= now;
    });
    if (unknown.length > 0) {
      const read = this.store.trackingNumbersAmong(unknown).then((found) => new Set(found));
      for (const e164 of unknown) {
        const entry: Entry = { expiresAt: now + this.ttlMs, tracking: read.then((found) => found.has(e164)) };
        entry.tracking.then(
          (known) => {
            entry.known = known;
          },
          () => {
            if (this.entries.get(e164) === entry) this.entries.delete(e164);
          },
        );
        this.remember(e164, entry);
      }
    } else {
      // The common case: every number was asked within the ttl and answered, so no promise per number.
      let allKnown = true;
      for (const e164 of e164s) {
        if (this.entries.get(e164)!.known === undefined) {
          allKnown = false;
          break;
        }
      }
      if (allKnown) return e164s.filter((e164) => this.entries.get(e164)!.known);
    }
    const answers = await Promise.all(e164s.map((e164) => this.entries.get(e164)!.tracking));
    return e164s.filter((_, i) => answers[i]);
  }

  private remember(e164: string, entry: Entry): void {
    this.entries.delete(e164);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(e164, entry);
  }
}

const MAX_ENTRIES = 10_000;

interface Entry {
  marker: string;
  expiresAt: number;
}

/**
 * What this process last saw a partner's `customers:sent` record hold for a custnr, kept for `ttlMs`
 * (PARTNER_CONFIG_CACHE_MS, ≤ 1 s). A dealer's pages are viewed again and again with the same values,
 * so after one request has confirmed the marker, the next ones within `ttlMs` leave the customer out
 * of the allocation script and skip its read of the record (docs/redis-keys.md, Customer-seen stream).
 * A value that changed gives another marker, which is never taken for the one remembered; only a
 * marker removed from Redis (a customer changed through the partner API, Redis restarted empty) is
 * seen up to `ttlMs` late.
 */
export class SentCustomerMemory {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  /** True when the record was seen holding `marker` for the custnr within the last `ttlMs`. */
  isCurrent(advId: string, custnr: string, marker: string): boolean {
    if (this.ttlMs <= 0) return false;
    const entry = this.entries.get(memoryKey(advId, custnr));
    return entry !== undefined && entry.marker === marker && entry.expiresAt > this.monotonicMs();
  }

  /** The allocation script has just left `marker` in the record (it was there, or it wrote it). */
  confirm(advId: string, custnr: string, marker: string): void {
    if (this.ttlMs <= 0) return;
    const key = memoryKey(advId, custnr);
    const entry = { marker, expiresAt: this.monotonicMs() + this.ttlMs };
    // Re-inserted so eviction drops the custnr confirmed longest ago.
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, entry);
  }
}

// NUL is refused in every field at both services' edges (text-rules.ts), so it cannot join two keys into one.
function memoryKey(advId: string, custnr: string): string {
  return `${advId}\u0000${custnr}`;
}

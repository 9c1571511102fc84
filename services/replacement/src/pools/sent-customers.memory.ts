import { customerSeenPeriod, type CustomerSeenEvent } from '@trackline/contracts';

const MAX_ENTRIES = 10_000;

/** What a marker (customerMarker) is made of: two events agreeing on these share a marker. */
interface Entry {
  period: number;
  custname: string | null;
  custemail: string | null;
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
 *
 * It keeps what the marker is made of rather than the marker: a request it confirms then needs no
 * marker at all, and making one (a JSON array, a number as text) was a visible part of the
 * request's instructions (docs/benchmarks.md).
 */
export class SentCustomerMemory {
  /** Partner → custnr → entry. */
  private readonly partners = new Map<string, Map<string, Entry>>();
  private size = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  /** True when the record was seen holding this customer's marker within the last `ttlMs`. */
  isCurrent(advId: string, customer: CustomerSeenEvent): boolean {
    if (this.ttlMs <= 0) return false;
    const entry = this.partners.get(advId)?.get(customer.custnr);
    return (
      entry !== undefined &&
      entry.period === customerSeenPeriod(customer.at) &&
      entry.custname === (customer.custname ?? null) &&
      entry.custemail === (customer.custemail ?? null) &&
      entry.expiresAt > this.monotonicMs()
    );
  }

  /** The allocation script has just left this customer's marker in the record (it was there, or it wrote it). */
  confirm(advId: string, customer: CustomerSeenEvent): void {
    if (this.ttlMs <= 0) return;
    // Entries live for `ttlMs`, a second at most in the service: when this many custnrs were confirmed
    // within it, starting over costs only a check of each by the script again.
    if (this.size >= MAX_ENTRIES && this.partners.get(advId)?.has(customer.custnr) !== true) {
      this.partners.clear();
      this.size = 0;
    }
    let custnrs = this.partners.get(advId);
    if (custnrs === undefined) {
      custnrs = new Map();
      this.partners.set(advId, custnrs);
    }
    if (!custnrs.has(customer.custnr)) this.size++;
    custnrs.set(customer.custnr, {
      period: customerSeenPeriod(customer.at),
      custname: customer.custname ?? null,
      custemail: customer.custemail ?? null,
      expiresAt: this.monotonicMs() + this.ttlMs,
    });
  }
}

import { partnerKeys, poolStatsHour } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { defineReplacementScripts, type ReplacementScripts } from './lua-scripts';

/** How often the counts are written: the rollup reads closed hours, minutes later (docs/pool-sizing.md). */
export const POOL_TELEMETRY_WRITE_MS = 1_000;

/** What one allocation did to its partner's pool, as the allocation script answers it. */
export interface AllocationCounts {
  newSession: boolean;
  /** Bindings made. */
  issued: number;
  /** Of those, numbers taken from another live session. */
  recycled: number;
}

interface HourCounts {
  advId: string;
  hour: number;
  sessions: number;
  issued: number;
  recycled: number;
  /** A free number was bound, so the number held may have risen: the write compares the peak. */
  freeBound: boolean;
  /** The latest request time counted (epoch ms, within the hour): the write counts numbers held after it. */
  lastNow: number;
}

/**
 * The pool telemetry of `<T>:pool-stats:<hour>` (docs/redis-keys.md, Pool telemetry), added up in
 * the process and written once a second, one lua/add-pool-stats.lua call per partner and hour,
 * instead of four commands in every request that starts a session. Counts a write could not store
 * are kept for the next one; a process that ends without its last write (a crash) loses at most a
 * second of counts, and a write whose answer was lost after it ran may count twice.
 */
export class PoolTelemetry {
  private readonly redis: RedisConnection & ReplacementScripts;
  private pending = new Map<string, HourCounts>();
  private writes: Promise<void> = Promise.resolve();
  private writing = false;
  /** The earliest hour counted and not yet stored (pending or being written); Infinity when none. */
  private earliestPending = Infinity;
  private earliestWriting = Infinity;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    redis: RedisConnection,
    private readonly keyPrefix: string,
    private readonly onWriteFailed: (error: unknown) => void,
  ) {
    this.redis = defineReplacementScripts(redis);
  }

  /** Counts one allocation of `advId` at `now` (the request's clock) in the hour of `now`. */
  record(advId: string, now: number, counts: AllocationCounts): void {
    if (!counts.newSession && counts.issued === 0) return;
    const hour = poolStatsHour(now);
    const key = `${hour}:${advId}`;
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = { advId, hour, sessions: 0, issued: 0, recycled: 0, freeBound: false, lastNow: now };
      this.pending.set(key, entry);
    }
    if (hour < this.earliestPending) this.earliestPending = hour;
    if (counts.newSession) entry.sessions += 1;
    entry.issued += counts.issued;
    entry.recycled += counts.recycled;
    if (counts.issued > counts.recycled) entry.freeBound = true;
    if (now > entry.lastNow) entry.lastNow = now;
  }

  /**
   * Whether counts of an hour before `hour` are not stored yet. A request of a new hour waits for
   * them (flush) before its allocation runs, so the peak written for the hour before does not count
   * the numbers the new hour binds: once an hour per process.
   */
  holdsHourBefore(hour: number): boolean {
    return this.earliestPending < hour || this.earliestWriting < hour;
  }

  /** Writes every count made so far; resolves once they are stored or kept again for the next write. */
  flush(): Promise<void> {
    this.writes = this.writes.then(() => this.writePending());
    return this.writes;
  }

  /** Writes every `intervalMs`, skipping a tick while a write is still out (a slow Redis gets no pile-up). */
  start(intervalMs: number = POOL_TELEMETRY_WRITE_MS): void {
    this.timer ??= setInterval(() => {
      if (!this.writing) void this.flush();
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.earliestWriting = this.earliestPending;
    this.earliestPending = Infinity;
    this.writing = true;
    try {
      const results = await Promise.allSettled(batch.map((counts) => this.write(counts)));
      let failure: unknown = null;
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') return;
        failure ??= result.reason;
        this.keepAgain(batch[i]!);
      });
      if (failure !== null) this.onWriteFailed(failure);
    } finally {
      this.writing = false;
      this.earliestWriting = Infinity;
    }
  }

  private async write(counts: HourCounts): Promise<void> {
    const keys = partnerKeys(this.keyPrefix, counts.advId);
    await this.redis.addPoolStats(
      keys.poolStats(counts.hour),
      keys.pool,
      String(counts.sessions),
      String(counts.issued),
      String(counts.recycled),
      counts.freeBound ? '1' : '0',
      String(counts.lastNow),
    );
  }

  private keepAgain(counts: HourCounts): void {
    if (counts.hour < this.earliestPending) this.earliestPending = counts.hour;
    const key = `${counts.hour}:${counts.advId}`;
    const newer = this.pending.get(key);
    if (newer === undefined) {
      this.pending.set(key, counts);
      return;
    }
    newer.sessions += counts.sessions;
    newer.issued += counts.issued;
    newer.recycled += counts.recycled;
    newer.freeBound ||= counts.freeBound;
    newer.lastNow = Math.max(newer.lastNow, counts.lastNow);
  }
}

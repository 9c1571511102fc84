/**
 * One partner-hour of pool telemetry as the allocation script counts it in `<T>:pool-stats:<hour>`
 * (docs/redis-keys.md, Pool telemetry; docs/pool-sizing.md). The script writes the field names below
 * literally; management reads them through this codec.
 */
export interface PoolHourStats {
  /** Sessions started (web and app) that asked for numbers. */
  sessions: number;
  /** Bindings made: a pool number given to a session for a number on its page. */
  issued: number;
  /** Of those, bindings taken from another live session because no number was free. */
  recycled: number;
  /** Most pool numbers held at once (bound, or in hold-back), seen when a binding was made. */
  peakLeased: number;
}

export const POOL_STATS_FIELDS = {
  sessions: 'sessions',
  issued: 'issued',
  recycled: 'recycled',
  peakLeased: 'peak',
} as const satisfies Record<keyof PoolHourStats, string>;

/** How long an hour's hash outlives the hour: management rolls it into Postgres within minutes. */
export const POOL_STATS_KEEP_HOURS = 48;

export const HOUR_MS = 3_600_000;

/** Whole hours since 1970 (UTC) of an epoch-ms instant: the `<hour>` of the key. */
export function poolStatsHour(epochMs: number): number {
  return Math.floor(epochMs / HOUR_MS);
}

/**
 * The counters of an `HGETALL` reply; null for a missing key (no traffic, or expired). A field that
 * is not a whole number reads as 0: the script writes only integers, so anything else is not ours.
 */
export function decodePoolHourStats(hash: Record<string, string>): PoolHourStats | null {
  if (Object.keys(hash).length === 0) return null;
  const read = (field: string): number => {
    const value = hash[field];
    return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : 0;
  };
  return {
    sessions: read(POOL_STATS_FIELDS.sessions),
    issued: read(POOL_STATS_FIELDS.issued),
    recycled: read(POOL_STATS_FIELDS.recycled),
    peakLeased: read(POOL_STATS_FIELDS.peakLeased),
  };
}

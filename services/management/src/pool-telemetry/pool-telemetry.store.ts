import type { PoolHourStats } from '@trackline/contracts';
import type { EntityManager } from 'typeorm';

/**
 * Calls that started within one UTC hour on a number a pool binding carried: the "calls per
 * binding" side of the telemetry, counted from the call records (cdrs/pool-calls.reader.ts, handed
 * over by composition: the records' feature sits above this one).
 */
export interface PoolCallCount {
  partnerId: string;
  /** The hour's start. */
  hour: Date;
  calls: number;
}

/** One partner-hour as stored (docs/pool-sizing.md). */
export interface PoolTelemetryHour extends PoolHourStats {
  /** The hour's start (UTC). */
  hour: Date;
  poolCalls: number;
  /** When `pool.exhausted` was raised for the hour; null when it was not. */
  exhaustedAt: Date | null;
}

/** An hour read from Redis, to be stored. */
export interface RolledHour {
  hour: Date;
  stats: PoolHourStats;
  /** The hour is over (with a grace for requests in flight): it is not read from Redis again. */
  closed: boolean;
}

/** An hour whose recycled share passed the partner's threshold, marked by this call. */
export interface ExhaustedHour {
  partnerId: string;
  hour: Date;
  /** The transaction's time: the `occurred_at` of the webhook deliveries queued with it. */
  exhaustedAt: Date;
}

// Counters only grow within an hour in Redis, so the larger value is the truer one: an upsert
// that repeats changes nothing, and one after Redis lost the hour's hash (which then counts from 0
// again) never lowers what was stored before the loss (docs/pool-sizing.md, Redis loss).
const UPSERT_SQL = `
  INSERT INTO pool_telemetry_hours AS t (partner_id, hour, sessions, issued, recycled, peak_leased, closed)
  SELECT $1, x.hour, x.sessions, x.issued, x.recycled, x.peak, x.closed
    FROM unnest($2::timestamptz[], $3::int[], $4::int[], $5::int[], $6::int[], $7::boolean[])
      AS x(hour, sessions, issued, recycled, peak, closed)
  ON CONFLICT (partner_id, hour) DO UPDATE SET
    sessions = GREATEST(t.sessions, EXCLUDED.sessions),
    issued = GREATEST(t.issued, EXCLUDED.issued),
    recycled = GREATEST(t.recycled, EXCLUDED.recycled),
    peak_leased = GREATEST(t.peak_leased, EXCLUDED.peak_leased),
    closed = t.closed OR EXCLUDED.closed,
    updated = now()
  WHERE (t.sessions, t.issued, t.recycled, t.peak_leased, t.closed)
    IS DISTINCT FROM (GREATEST(t.sessions, EXCLUDED.sessions), GREATEST(t.issued, EXCLUDED.issued),
      GREATEST(t.recycled, EXCLUDED.recycled), GREATEST(t.peak_leased, EXCLUDED.peak_leased),
      t.closed OR EXCLUDED.closed)`;

const POOL_CALLS_SQL = `
  UPDATE pool_telemetry_hours AS t SET pool_calls = x.calls, updated = now()
    FROM unnest($1::bigint[], $2::timestamptz[], $3::int[]) AS x(partner_id, hour, calls)
   WHERE t.partner_id = x.partner_id AND t.hour = x.hour AND t.pool_calls <> x.calls`;

// now() is the transaction's time, the same the webhook outbox stamps on the deliveries queued in
// this transaction: the delivery finds its hour by it. Only a row still unmarked is taken, so a
// partner-hour raises the event once, whichever replica gets there first.
const MARK_EXHAUSTED_SQL = `
  UPDATE pool_telemetry_hours AS t SET exhausted_at = now()
    FROM partners p
   WHERE p.id = t.partner_id AND t.exhausted_at IS NULL AND t.hour >= $1
     AND t.issued > 0 AND t.recycled > p.pool_exhausted_share * t.issued
  RETURNING t.partner_id::text AS partner_id, t.hour, t.exhausted_at`;

const HOUR_COLUMNS = `hour, sessions, issued, recycled, peak_leased, pool_calls, exhausted_at`;

interface HourRow {
  hour: Date;
  sessions: number;
  issued: number;
  recycled: number;
  peak_leased: number;
  pool_calls: number;
  exhausted_at: Date | null;
}

/** The only door to `pool_telemetry_hours`. */
export class PoolTelemetryStore {
  constructor(private readonly manager: EntityManager) {}

  /** Each partner's hours from `from` on that are closed: Redis is not read for them again. */
  async closedHours(from: Date): Promise<Map<string, Set<number>>> {
    const rows = (await this.manager.query(
      `SELECT partner_id::text AS partner_id, hour FROM pool_telemetry_hours WHERE closed AND hour >= $1`,
      [from],
    )) as Array<{ partner_id: string; hour: Date }>;
    const closed = new Map<string, Set<number>>();
    for (const row of rows) {
      const hours = closed.get(row.partner_id) ?? new Set<number>();
      hours.add(row.hour.getTime());
      closed.set(row.partner_id, hours);
    }
    return closed;
  }

  async upsertHours(partnerId: string, hours: readonly RolledHour[]): Promise<void> {
    if (hours.length === 0) return;
    await this.manager.query(UPSERT_SQL, [
      partnerId,
      hours.map((row) => row.hour),
      hours.map((row) => row.stats.sessions),
      hours.map((row) => row.stats.issued),
      hours.map((row) => row.stats.recycled),
      hours.map((row) => row.stats.peakLeased),
      hours.map((row) => row.closed),
    ]);
  }

  /** Sets the calls of hours already stored; calls of hours without telemetry have nothing to divide by. */
  async setPoolCalls(counts: readonly PoolCallCount[]): Promise<void> {
    if (counts.length === 0) return;
    await this.manager.query(POOL_CALLS_SQL, [
      counts.map((count) => count.partnerId),
      counts.map((count) => count.hour),
      counts.map((count) => count.calls),
    ]);
  }

  /** Marks every unmarked hour from `from` on whose recycled share passes its partner's threshold. */
  async markExhausted(from: Date): Promise<ExhaustedHour[]> {
    const [rows] = (await this.manager.query(MARK_EXHAUSTED_SQL, [from])) as [
      Array<{ partner_id: string; hour: Date; exhausted_at: Date }>,
      number,
    ];
    return rows.map((row) => ({ partnerId: row.partner_id, hour: row.hour, exhaustedAt: row.exhausted_at }));
  }

  /** A partner's stored hours in [from, to), oldest first. */
  async hours(partnerId: string, from: Date, to: Date): Promise<PoolTelemetryHour[]> {
    const rows = (await this.manager.query(
      `SELECT ${HOUR_COLUMNS} FROM pool_telemetry_hours
        WHERE partner_id = $1 AND hour >= $2 AND hour < $3 ORDER BY hour`,
      [partnerId, from, to],
    )) as HourRow[];
    return rows.map(toHour);
  }

  /** The hour whose `pool.exhausted` was raised at `exhaustedAt` (a delivery's `occurred_at`). */
  async exhaustedHour(partnerId: string, exhaustedAt: Date): Promise<PoolTelemetryHour | null> {
    const [row] = (await this.manager.query(
      // A Date holds milliseconds; Postgres keeps microseconds.
      `SELECT ${HOUR_COLUMNS} FROM pool_telemetry_hours
        WHERE partner_id = $1 AND date_trunc('milliseconds', exhausted_at) = $2`,
      [partnerId, exhaustedAt],
    )) as HourRow[];
    return row === undefined ? null : toHour(row);
  }
}

function toHour(row: HourRow): PoolTelemetryHour {
  return {
    hour: row.hour,
    sessions: row.sessions,
    issued: row.issued,
    recycled: row.recycled,
    peakLeased: row.peak_leased,
    poolCalls: row.pool_calls,
    exhaustedAt: row.exhausted_at,
  };
}

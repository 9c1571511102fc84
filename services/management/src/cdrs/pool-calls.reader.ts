import type { EntityManager } from 'typeorm';

/** Calls that started within one UTC hour on a number a pool binding carried. */
export interface PoolCallsInHour {
  partnerId: string;
  /** The hour's start. */
  hour: Date;
  calls: number;
}

/**
 * Call records per partner and hour of `start` whose attribution came from a pool binding
 * (`session`, `recycled`, `after_session`; docs/cdrs.md, Attribution confidence): the "calls per
 * binding" side of the pool telemetry (docs/pool-sizing.md). Read-only; the records stay this
 * feature's.
 */
export class PoolCallsReader {
  constructor(private readonly manager: EntityManager) {}

  async countByHour(from: Date, to: Date): Promise<PoolCallsInHour[]> {
    const rows = (await this.manager.query(
      `SELECT partner_id::text AS partner_id, date_trunc('hour', start, 'UTC') AS hour, count(*)::int AS calls
         FROM cdrs
        WHERE start >= $1 AND start < $2 AND attribution IN ('session', 'recycled', 'after_session')
        GROUP BY 1, 2`,
      [from, to],
    )) as Array<{ partner_id: string; hour: Date; calls: number }>;
    return rows.map((row) => ({ partnerId: row.partner_id, hour: row.hour, calls: row.calls }));
  }
}

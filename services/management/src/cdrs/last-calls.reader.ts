import type { EntityManager } from 'typeorm';

/**
 * The last call to each of a partner's numbers since a moment: what tells the pool's autoscaling
 * that a number is idle (docs/pool-sizing.md, Autoscaling). Read-only; the records stay this
 * feature's.
 */
export class LastCallsReader {
  constructor(private readonly manager: EntityManager) {}

  /** Numbers without a call since `since` are absent from the map. */
  async lastCallsTo(partnerId: string, numbers: readonly string[], since: Date): Promise<Map<string, Date>> {
    if (numbers.length === 0) return new Map();
    const rows = (await this.manager.query(
      `SELECT bnum, max(start) AS last_call FROM cdrs
        WHERE partner_id = $1 AND start >= $2 AND bnum = ANY($3::text[])
        GROUP BY bnum`,
      [partnerId, since, numbers],
    )) as Array<{ bnum: string; last_call: Date }>;
    return new Map(rows.map((row) => [row.bnum, row.last_call]));
  }
}

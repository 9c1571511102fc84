import type { EntityManager } from 'typeorm';

/**
 * What other features read of the tracking_numbers table; the numbers feature is its only door. A
 * store of its own, with no collaborators, so the sources store can read hold-backs without the
 * numbers store (which reads the sources store for its listing).
 */
export interface NumberHoldBacks {
  /** The partner's numbers still held back at `now` (their source closed, the hold-back not over). */
  heldBackNumbers(partnerId: string, now: Date): Promise<string[]>;
  /** Every number of the partner, with the end of its hold-back (null when none). */
  holdBacks(partnerId: string): Promise<Map<string, Date | null>>;
}

export class TypeormNumberHoldBacks implements NumberHoldBacks {
  constructor(private readonly manager: EntityManager) {}

  async heldBackNumbers(partnerId: string, now: Date): Promise<string[]> {
    const rows = (await this.manager.query(
      `SELECT e164 FROM tracking_numbers WHERE partner_id = $1 AND held_until > $2 ORDER BY e164`,
      [partnerId, now],
    )) as Array<{ e164: string }>;
    return rows.map((row) => row.e164);
  }

  async holdBacks(partnerId: string): Promise<Map<string, Date | null>> {
    const rows = (await this.manager.query(
      `SELECT e164, held_until FROM tracking_numbers WHERE partner_id = $1`,
      [partnerId],
    )) as Array<{ e164: string; held_until: Date | null }>;
    return new Map(rows.map((row) => [row.e164, row.held_until]));
  }
}

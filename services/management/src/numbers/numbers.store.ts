import type { EntityManager } from 'typeorm';
import { isUniqueViolation } from '../db/pg-errors';
import type { TypeormPartnersStore } from '../partners/partners.store';
import type { NumberKind } from './tracking-number.entity';
import type { QuarantinedNumber, TakenNumber, TrackingNumber } from './tracking-number';

export interface NumbersStore {
  /** The numbers (of any partner) already in the inventory, ordered by number. */
  findTaken(numbers: readonly string[]): Promise<TakenNumber[]>;
  /**
   * Adds all numbers or none (one statement). Returns false when one of them was taken meanwhile;
   * the caller then reports the duplicates.
   */
  add(partnerId: string, kind: NumberKind, numbers: readonly string[], now: Date): Promise<boolean>;
  /** The partner's inventory, pool numbers first, each kind in number order. */
  list(partnerId: string): Promise<TrackingNumber[]>;
  /** The partner's pool numbers in number order. */
  poolNumbers(partnerId: string): Promise<string[]>;
  /** Those of `numbers` the partner released and may not add back yet, with the quarantine's end. */
  quarantinedAmong(partnerId: string, numbers: readonly string[], now: Date): Promise<QuarantinedNumber[]>;
}

/** The removal of one number (docs/carrier-numbers.md, Releasing); call inside one unit of work. */
export interface NumberRemovalStore {
  /** Locks the partner's row of the number until the transaction ends (no source can take it meanwhile). */
  lockForRemoval(
    partnerId: string,
    e164: string,
  ): Promise<{ kind: NumberKind; heldUntil: Date | null } | null>;
  /** The open source whose destnr the number is, or null. */
  sourceUsing(partnerId: string, e164: string): Promise<string | null>;
  /** Deletes it from the inventory and quarantines it for the partner until `until`. */
  removeAndQuarantine(partnerId: string, e164: string, releasedAt: Date, until: Date): Promise<void>;
}

/** The static-number side used by source writes; call inside the source's unit of work. */
export interface StaticNumberAllocator {
  /**
   * Takes the partner's static number that has been free the longest and is not held back, marks
   * it in use and keeps its row locked until the transaction ends. Rows other transactions are
   * taking are skipped, so concurrent creates never share a number. Null when none is free.
   */
  claimStaticNumber(partnerId: string, now: Date): Promise<string | null>;
  /** A closed source's number: free again from `until`, not before. */
  holdBack(partnerId: string, e164: string, until: Date): Promise<void>;
}

const E164_CONSTRAINT = 'UQ_tracking_numbers_e164';

interface ListedRow {
  e164: string;
  kind: NumberKind;
  added_at: Date;
  held_until: Date | null;
  free_since: Date | null;
}

/** The owners of what a listing shows beside the numbers, on the same manager (docs/architecture.md, Stores). */
export interface NumbersStoreCollaborators {
  /** Names the partner that holds a taken number. */
  partners: Pick<TypeormPartnersStore, 'namesByIds'>;
  /**
   * Says which open source uses a listed number: per number, the id of the open source on it (at
   * most one); numbers without are absent. The sources store answers it; sources sit above numbers.
   */
  sources: {
    activeSourceIdsByDestnr(partnerId: string, e164s: readonly string[]): Promise<Map<string, string>>;
  };
}

export class TypeormNumbersStore implements NumbersStore, StaticNumberAllocator, NumberRemovalStore {
  constructor(
    private readonly manager: EntityManager,
    private readonly owners: NumbersStoreCollaborators,
  ) {}

  async findTaken(numbers: readonly string[]): Promise<TakenNumber[]> {
    if (numbers.length === 0) return [];
    const rows = (await this.manager.query(
      `SELECT e164, kind, partner_id::text AS partner_id FROM tracking_numbers
        WHERE e164 = ANY($1::varchar[])
        ORDER BY e164`,
      [numbers],
    )) as Array<{ e164: string; kind: NumberKind; partner_id: string }>;
    if (rows.length === 0) return [];
    const names = await this.owners.partners.namesByIds([...new Set(rows.map((row) => row.partner_id))]);
    return rows.map((row) => ({ e164: row.e164, kind: row.kind, partnerName: names.get(row.partner_id)! }));
  }

  async add(partnerId: string, kind: NumberKind, numbers: readonly string[], now: Date): Promise<boolean> {
    try {
      // A static number is free from the moment it is added; pool numbers are Redis's business.
      await this.manager.query(
        `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at, free_since)
         SELECT $1, number, $3, $4, CASE WHEN $3 = 'static' THEN $4::timestamptz END
           FROM unnest($2::varchar[]) AS number`,
        [partnerId, numbers, kind, now],
      );
      return true;
    } catch (error) {
      if (isUniqueViolation(error, E164_CONSTRAINT)) return false;
      throw error;
    }
  }

  async list(partnerId: string): Promise<TrackingNumber[]> {
    const rows = (await this.manager.query(
      `SELECT e164, kind, added_at, held_until, free_since FROM tracking_numbers
        WHERE partner_id = $1
        ORDER BY kind, e164`,
      [partnerId],
    )) as ListedRow[];
    const users = await this.owners.sources.activeSourceIdsByDestnr(
      partnerId,
      rows.map((row) => row.e164),
    );
    return rows.map((row) => ({
      e164: row.e164,
      kind: row.kind,
      addedAt: row.added_at,
      heldUntil: row.held_until,
      freeSince: row.free_since,
      usedBySourceId: users.get(row.e164) ?? null,
    }));
  }

  async poolNumbers(partnerId: string): Promise<string[]> {
    const rows = (await this.manager.query(
      `SELECT e164 FROM tracking_numbers WHERE partner_id = $1 AND kind = 'pool' ORDER BY e164`,
      [partnerId],
    )) as Array<{ e164: string }>;
    return rows.map((row) => row.e164);
  }

  async claimStaticNumber(partnerId: string, now: Date): Promise<string | null> {
    const [rows] = (await this.manager.query(
      `UPDATE tracking_numbers SET free_since = NULL, held_until = NULL
        WHERE id = (
          SELECT id FROM tracking_numbers
           WHERE partner_id = $1 AND kind = 'static' AND free_since <= $2
             AND (held_until IS NULL OR held_until <= $2)
           ORDER BY free_since, id
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING e164`,
      [partnerId, now],
    )) as [Array<{ e164: string }>, number];
    return rows[0]?.e164 ?? null;
  }

  async holdBack(partnerId: string, e164: string, until: Date): Promise<void> {
    await this.manager.query(
      `UPDATE tracking_numbers SET held_until = $3, free_since = $3 WHERE partner_id = $1 AND e164 = $2`,
      [partnerId, e164, until],
    );
  }

  async quarantinedAmong(
    partnerId: string,
    numbers: readonly string[],
    now: Date,
  ): Promise<QuarantinedNumber[]> {
    if (numbers.length === 0) return [];
    const rows = (await this.manager.query(
      `SELECT e164, until FROM number_quarantines
        WHERE partner_id = $1 AND e164 = ANY($2::varchar[]) AND until > $3
        ORDER BY e164`,
      [partnerId, numbers, now],
    )) as Array<{ e164: string; until: Date }>;
    return rows;
  }

  async lockForRemoval(
    partnerId: string,
    e164: string,
  ): Promise<{ kind: NumberKind; heldUntil: Date | null } | null> {
    const rows = (await this.manager.query(
      `SELECT kind, held_until FROM tracking_numbers WHERE partner_id = $1 AND e164 = $2 FOR UPDATE`,
      [partnerId, e164],
    )) as Array<{ kind: NumberKind; held_until: Date | null }>;
    const row = rows[0];
    return row === undefined ? null : { kind: row.kind, heldUntil: row.held_until };
  }

  async sourceUsing(partnerId: string, e164: string): Promise<string | null> {
    return (await this.owners.sources.activeSourceIdsByDestnr(partnerId, [e164])).get(e164) ?? null;
  }

  async removeAndQuarantine(partnerId: string, e164: string, releasedAt: Date, until: Date): Promise<void> {
    await this.manager.query(`DELETE FROM tracking_numbers WHERE partner_id = $1 AND e164 = $2`, [
      partnerId,
      e164,
    ]);
    await this.manager.query(
      `INSERT INTO number_quarantines (partner_id, e164, released_at, until) VALUES ($1, $2, $3, $4)
       ON CONFLICT (partner_id, e164) DO UPDATE SET released_at = EXCLUDED.released_at, until = EXCLUDED.until`,
      [partnerId, e164, releasedAt, until],
    );
  }
}

import type { EntityManager } from 'typeorm';
import type { Cdr } from './cdr';
import type { CdrFeedPosition } from './cdr-feed-cursor';
import { CDR_COLUMNS, toCdr } from './cdrs.store';

/** One row of the feed: a change, and the record as it is now (null once the record is gone). */
export interface CdrChangeEntry {
  position: CdrFeedPosition;
  cdrId: string;
  kind: string;
  changedAt: Date;
  cdr: Cdr | null;
}

type Row = Record<string, unknown>;

/** Retention deletes in batches, so no transaction holds many row locks. */
const DELETE_BATCH = 10_000;

/** Reads and trims "cdr_changes" (docs/cdrs.md, Change feed); `recordCdrChange` writes it. */
export class TypeormCdrChangesStore {
  constructor(private readonly manager: EntityManager) {}

  /**
   * The partner's changes after `after`, in (txid, id) order, of transactions that have all ended:
   * a row whose txid is at or above the snapshot's xmin may have company still to commit with a
   * lower id, so it waits until every transaction before it has ended (docs/cdrs.md, Change feed).
   */
  async changesAfter(partnerId: string, after: CdrFeedPosition, limit: number): Promise<CdrChangeEntry[]> {
    const rows: Row[] = await this.manager.query(
      `SELECT "id"::text AS "id", "txid"::text AS "txid", "cdr_id"::text AS "cdr_id", "start", "kind",
              "changed_at"
         FROM "cdr_changes"
        WHERE "partner_id" = $1 AND ("txid", "id") > ($2::bigint, $3::bigint)
          AND "txid" < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
        ORDER BY "txid", "id"
        LIMIT $4`,
      [partnerId, after.txid, after.id, limit],
    );
    const records = await this.records(partnerId, rows);
    return rows.map((row) => ({
      position: { txid: row.txid as string, id: row.id as string },
      cdrId: row.cdr_id as string,
      kind: row.kind as string,
      changedAt: row.changed_at as Date,
      cdr: records.get(row.cdr_id as string) ?? null,
    }));
  }

  /** Deletes changes noted before `cutoff`, oldest id first; returns how many. */
  async deleteBefore(cutoff: Date): Promise<number> {
    let deleted = 0;
    for (;;) {
      // Only the head of the primary key is read: ids grow with time, so the old rows are there,
      // and a last batch does not scan the whole table looking for more.
      const [{ count }] = (await this.manager.query(
        `WITH "head" AS (
           SELECT "id", "changed_at" FROM "cdr_changes" ORDER BY "id" LIMIT $2
         ), "gone" AS (
           DELETE FROM "cdr_changes" c USING "head" h WHERE c."id" = h."id" AND h."changed_at" < $1
           RETURNING 1
         )
         SELECT count(*)::int AS "count" FROM "gone"`,
        [cutoff, DELETE_BATCH],
      )) as Array<{ count: number }>;
      deleted += count;
      if (count < DELETE_BATCH) return deleted;
    }
  }

  /** The records the changes name, each read from its own partition, in one statement. */
  private async records(partnerId: string, changes: Row[]): Promise<Map<string, Cdr>> {
    if (changes.length === 0) return new Map();
    const starts = changes.map((row) => (row.start as Date).getTime());
    const rows: Row[] = await this.manager.query(
      `SELECT ${CDR_COLUMNS} FROM "cdrs"
        WHERE "partner_id" = $1
          AND ("id", "start") IN (SELECT * FROM unnest($2::bigint[], $3::timestamptz[]))
          AND "start" >= $4 AND "start" <= $5`,
      [
        partnerId,
        changes.map((row) => row.cdr_id),
        changes.map((row) => row.start),
        new Date(Math.min(...starts)),
        new Date(Math.max(...starts)),
      ],
    );
    return new Map(rows.map((row) => [String(row.id), toCdr(row)]));
  }
}

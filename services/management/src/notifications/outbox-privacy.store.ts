import type { DataSource } from 'typeorm';
import { deleteRowsOfRemovedRecords } from '../db/rows-of-removed-records';

/** What the data lifecycle does to the notification outbox (docs/privacy.md). */
export class OutboxPrivacyStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Deletes notifications whose call record no longer exists (deleted or dropped by retention): their
   * text names the caller, and a message about a call past retention has no one left to tell.
   */
  deleteOrphaned(): Promise<number> {
    return deleteRowsOfRemovedRecords(this.dataSource, 'notification_outbox');
  }

  /**
   * Replaces the caller's number, in any of its spellings, in the notifications of these records by
   * `masked` and drops the recording they would attach (it is erased): the rows stay (delivery
   * history), and one still pending is sent without either. Answers how many notifications changed.
   */
  async redactCaller(
    cdrIds: readonly string[],
    spellings: readonly string[],
    masked: string,
  ): Promise<number> {
    if (cdrIds.length === 0 || spellings.length === 0) return 0;
    // One alternation: a Postgres regular expression of branches takes the longest match at each
    // place, so "+4791234567" goes whole before its tail "91234567" could match.
    const pattern = spellings.map((spelling) => spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    const [{ count }] = (await this.dataSource.query(
      `WITH "changed" AS (
         UPDATE "notification_outbox"
            SET "payload" = regexp_replace("payload"::text, $2, $3, 'g')::jsonb - 'attachment',
                "attachment_cdr_id" = NULL
          WHERE "cdr_id" = ANY($1::bigint[])
            AND ("payload"::text ~ $2 OR "attachment_cdr_id" = ANY($1::bigint[]))
         RETURNING 1
       )
       SELECT count(*)::int AS "count" FROM "changed"`,
      [cdrIds, pattern, masked],
    )) as Array<{ count: number }>;
    return count;
  }
}

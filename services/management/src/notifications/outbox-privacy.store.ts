import type { DataSource } from 'typeorm';

/** What the data lifecycle does to the notification outbox (docs/privacy.md). */
export class OutboxPrivacyStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Deletes notifications whose call record no longer exists (deleted or dropped by retention): their
   * text names the caller, and a message about a call past retention has no one left to tell.
   */
  async deleteOrphaned(): Promise<number> {
    const [{ count }] = (await this.dataSource.query(
      `WITH "gone" AS (
         DELETE FROM "notification_outbox" o
          WHERE NOT EXISTS (SELECT 1 FROM "cdrs" c WHERE c."id" = o."cdr_id")
         RETURNING 1
       )
       SELECT count(*)::int AS "count" FROM "gone"`,
    )) as Array<{ count: number }>;
    return count;
  }

  /**
   * Replaces the caller's number in the notifications of these records and drops the recording they
   * would attach (it is erased): the rows stay (delivery history), and one still pending is sent
   * without either.
   */
  async redactCaller(cdrIds: readonly string[], anum: string, masked: string): Promise<number> {
    if (cdrIds.length === 0) return 0;
    const [{ count }] = (await this.dataSource.query(
      `WITH "changed" AS (
         UPDATE "notification_outbox"
            SET "payload" = replace("payload"::text, $2, $3)::jsonb - 'attachment',
                "attachment_cdr_id" = NULL
          WHERE "cdr_id" = ANY($1::bigint[])
            AND (strpos("payload"::text, $2) > 0 OR "attachment_cdr_id" = ANY($1::bigint[]))
         RETURNING 1
       )
       SELECT count(*)::int AS "count" FROM "changed"`,
      [cdrIds, anum, masked],
    )) as Array<{ count: number }>;
    return count;
  }
}

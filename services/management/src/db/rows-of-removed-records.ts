/** The tables whose rows name a call record by "cdr_id" without a foreign key (cdrs is partitioned). */
export type RecordRowsTable =
  'notification_outbox' | 'conversion_outbox' | 'transcription_jobs' | 'transcripts' | 'call_recordings';

/**
 * Deletes the rows of `table` whose call record no longer exists (removed by the data lifecycle or
 * erased, docs/privacy.md); answers how many went.
 */
export async function deleteRowsOfRemovedRecords(
  db: { query(sql: string): Promise<unknown> },
  table: RecordRowsTable,
): Promise<number> {
  const [{ count }] = (await db.query(
    `WITH "gone" AS (
       DELETE FROM "${table}" o
        WHERE NOT EXISTS (SELECT 1 FROM "cdrs" c WHERE c."id" = o."cdr_id")
       RETURNING 1
     )
     SELECT count(*)::int AS "count" FROM "gone"`,
  )) as Array<{ count: number }>;
  return count;
}

/**
 * Deletes the rows of `table` that belong to the given call records (a caller's erased records,
 * docs/privacy.md); answers how many went.
 */
export async function deleteRowsOfRecords(
  db: { query(sql: string, parameters: unknown[]): Promise<unknown> },
  table: RecordRowsTable,
  cdrIds: readonly string[],
): Promise<number> {
  if (cdrIds.length === 0) return 0;
  const [{ count }] = (await db.query(
    `WITH "gone" AS (DELETE FROM "${table}" WHERE "cdr_id" = ANY($1::bigint[]) RETURNING 1)
     SELECT count(*)::int AS "count" FROM "gone"`,
    [cdrIds],
  )) as Array<{ count: number }>;
  return count;
}

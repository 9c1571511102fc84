import type { DataSource } from 'typeorm';

/**
 * The caller's number in the webhook outbox (docs/privacy.md, Erasure of one caller): the webhooks
 * feature's door to `webhook_deliveries` for the erasure. A delivery keeps no body (it is rendered
 * from the record when sent), but `last_error` keeps the start of the receiver's answer, and a
 * receiver that refuses a body often quotes it, the caller's number included.
 */
export class WebhookDeliveriesPrivacyStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Replaces the caller's number, in any of `spellings`, in the recorded answers to the deliveries of
   * these records by `masked`. Answers how many deliveries changed.
   */
  async redactCaller(
    cdrIds: readonly string[],
    spellings: readonly string[],
    masked: string,
  ): Promise<number> {
    if (cdrIds.length === 0 || spellings.length === 0) return 0;
    // One alternation: at each place Postgres takes the longest branch that matches, so
    // "+4791234567" goes whole before its tail "91234567" could match.
    const pattern = spellings.map((spelling) => spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    // The delivery log keeps each attempt's answer too (docs/webhooks.md, Delivery log).
    const [{ count }] = (await this.dataSource.query(
      `WITH "changed" AS (
         UPDATE "webhook_deliveries" SET "last_error" = regexp_replace("last_error", $2, $3, 'g')
          WHERE "cdr_id" = ANY($1::bigint[]) AND "last_error" ~ $2
         RETURNING 1
       ), "logged" AS (
         UPDATE "webhook_delivery_attempts" a
            SET "response_body" = regexp_replace(a."response_body", $2, $3, 'g'),
                "error" = regexp_replace(a."error", $2, $3, 'g')
           FROM "webhook_deliveries" d
          WHERE a."delivery_id" = d."id" AND d."cdr_id" = ANY($1::bigint[])
            AND (a."response_body" ~ $2 OR a."error" ~ $2)
         RETURNING 1
       )
       SELECT count(*)::int AS "count" FROM "changed"`,
      [cdrIds, pattern, masked],
    )) as Array<{ count: number }>;
    return count;
  }
}

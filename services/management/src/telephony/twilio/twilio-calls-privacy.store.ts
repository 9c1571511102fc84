import type { DataSource } from 'typeorm';

/**
 * The caller's number in provider calls not yet swept (docs/privacy.md, Erasure of one caller): the
 * telephony feature's door to `twilio_calls` for the erasure.
 */
export class TwilioCallsPrivacyStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Replaces the caller (any of `spellings`) of the calls to `trackingNumbers` by `masked`; a call
   * still in progress then stores its record with the masked number. Answers how many calls changed.
   */
  async maskCaller(
    trackingNumbers: readonly string[],
    spellings: readonly string[],
    masked: string,
  ): Promise<number> {
    if (trackingNumbers.length === 0 || spellings.length === 0) return 0;
    const [{ count }] = (await this.dataSource.query(
      `WITH "changed" AS (
         UPDATE "twilio_calls" SET "from_number" = $3
          WHERE "to_number" = ANY($1::varchar[]) AND "from_number" = ANY($2::varchar[])
         RETURNING 1
       )
       SELECT count(*)::int AS "count" FROM "changed"`,
      [trackingNumbers, spellings, masked],
    )) as Array<{ count: number }>;
    return count;
  }
}

import { partnerKeys } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import type { EntityManager } from 'typeorm';

/**
 * A caller's number out of a partner's spam lists (Postgres and the Redis projection) and out of
 * the caller's history in Redis (docs/privacy.md, docs/spam.md). Answers how many entries went.
 */
export class SpamPrivacyEraser {
  constructor(
    private readonly manager: EntityManager,
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {}

  async erase(partnerId: string, advId: string, anums: readonly string[]): Promise<number> {
    const rows: unknown[] = await this.manager.query(
      `WITH "gone" AS (DELETE FROM "spam_numbers" WHERE "partner_id" = $1 AND "number" = ANY($2::varchar[])
         RETURNING 1)
       SELECT * FROM "gone"`,
      [partnerId, anums],
    );
    const keys = partnerKeys(this.keyPrefix, advId);
    let erased = rows.length;
    // One key at a time: on a Cluster a multi-key DEL must stay in one slot (they do, by the tag).
    await this.redis.hdel(keys.spamLists, ...anums);
    for (const anum of anums) {
      erased += await this.redis.del(keys.callerNumbers(anum));
      erased += await this.redis.del(keys.callerShortCalls(anum));
      erased += await this.redis.del(keys.callerMarks(anum));
    }
    return erased;
  }
}

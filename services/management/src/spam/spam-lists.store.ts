import { partnerKeys } from '@trackline/contracts';
import type { EntityManager } from 'typeorm';
import type { Paging } from '../validation/paging';

export type SpamList = 'block' | 'allow';

export interface SpamNumber {
  number: string;
  list: SpamList;
  created: Date;
}

/** The partner's block and allow lists (docs/spam.md): the only door to `spam_numbers`. */
export interface SpamListsStore {
  page(partnerId: string, list: SpamList, paging: Paging): Promise<{ numbers: SpamNumber[]; total: number }>;
  /** Every entry of the partner, for the Redis projection. */
  all(partnerId: string): Promise<Record<string, SpamList>>;
  /** Puts the number on the list (moving it from the other one); the stored entry. */
  put(partnerId: string, list: SpamList, number: string): Promise<SpamNumber>;
  /** Null when the number was not on that list. */
  remove(partnerId: string, list: SpamList, number: string): Promise<SpamNumber | null>;
  /** Every partner's entries for the number, removed; how many (privacy erasure). */
  eraseNumber(number: string): Promise<(SpamNumber & { partnerId: string })[]>;
}

type Row = Record<string, unknown>;

export class TypeormSpamListsStore implements SpamListsStore {
  constructor(private readonly manager: EntityManager) {}

  async page(
    partnerId: string,
    list: SpamList,
    paging: Paging,
  ): Promise<{ numbers: SpamNumber[]; total: number }> {
    const [rows, counted] = await Promise.all([
      this.manager.query(
        `SELECT "number", "list", "created" FROM "spam_numbers" WHERE "partner_id" = $1 AND "list" = $2
          ORDER BY "number" LIMIT $3 OFFSET $4`,
        [partnerId, list, paging.pageSize, paging.page * paging.pageSize],
      ) as Promise<Row[]>,
      this.manager.query(
        `SELECT count(*)::int AS "total" FROM "spam_numbers" WHERE "partner_id" = $1 AND "list" = $2`,
        [partnerId, list],
      ) as Promise<Row[]>,
    ]);
    return { numbers: rows.map(toSpamNumber), total: counted[0]!.total as number };
  }

  async all(partnerId: string): Promise<Record<string, SpamList>> {
    const rows: Row[] = await this.manager.query(
      `SELECT "number", "list" FROM "spam_numbers" WHERE "partner_id" = $1`,
      [partnerId],
    );
    return Object.fromEntries(rows.map((row) => [row.number as string, row.list as SpamList]));
  }

  async put(partnerId: string, list: SpamList, number: string): Promise<SpamNumber> {
    // Idempotent: the same number put twice keeps its first time; put on the other list, it moves.
    const rows: Row[] = await this.manager.query(
      `INSERT INTO "spam_numbers" ("partner_id", "number", "list") VALUES ($1, $2, $3)
       ON CONFLICT ("partner_id", "number") DO UPDATE SET "list" = EXCLUDED."list",
         "created" = CASE WHEN "spam_numbers"."list" = EXCLUDED."list" THEN "spam_numbers"."created" ELSE now() END
       RETURNING "number", "list", "created"`,
      [partnerId, number, list],
    );
    return toSpamNumber(rows[0]!);
  }

  async remove(partnerId: string, list: SpamList, number: string): Promise<SpamNumber | null> {
    const rows: Row[] = await this.manager.query(
      `WITH "gone" AS (DELETE FROM "spam_numbers" WHERE "partner_id" = $1 AND "list" = $2 AND "number" = $3
         RETURNING "number", "list", "created")
       SELECT * FROM "gone"`,
      [partnerId, list, number],
    );
    return rows[0] === undefined ? null : toSpamNumber(rows[0]);
  }

  async eraseNumber(number: string): Promise<(SpamNumber & { partnerId: string })[]> {
    const rows: Row[] = await this.manager.query(
      `WITH "gone" AS (DELETE FROM "spam_numbers" WHERE "number" = $1
         RETURNING "partner_id"::text AS "partner_id", "number", "list", "created")
       SELECT * FROM "gone"`,
      [number],
    );
    return rows.map((row) => ({ ...toSpamNumber(row), partnerId: row.partner_id as string }));
  }
}

/** The Redis commands the lists' projection needs. */
export interface SpamListsRedis {
  hset(key: string, field: string, value: string): Promise<unknown>;
  hdel(key: string, ...fields: string[]): Promise<unknown>;
}

/**
 * The lists as replacement reads them at the voice webhook: one hash per partner (docs/redis-keys.md,
 * Spam). Written after the row, so a failure leaves Redis behind Postgres until the next write.
 */
export class RedisSpamListsProjection {
  constructor(
    private readonly redis: SpamListsRedis,
    private readonly keyPrefix: string,
  ) {}

  async put(advId: string, list: SpamList, number: string): Promise<void> {
    await this.redis.hset(partnerKeys(this.keyPrefix, advId).spamLists, number, list);
  }

  async remove(advId: string, number: string): Promise<void> {
    await this.redis.hdel(partnerKeys(this.keyPrefix, advId).spamLists, number);
  }
}

function toSpamNumber(row: Row): SpamNumber {
  return { number: row.number as string, list: row.list as SpamList, created: row.created as Date };
}

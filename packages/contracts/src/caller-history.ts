import { SPAM_HISTORY, type CallerHistory } from '@trackline/domain';
import { partnerKeys } from './redis-keys';

/** How much of a caller's history Redis keeps (docs/redis-keys.md, Spam). */
export const CALLER_HISTORY_LIMITS = {
  /** Members kept per sorted set; older ones are dropped first. */
  maxEntries: 100,
  /** Idle expiry of the call sets: the longest window they are read over. */
  callsTtlSeconds: SPAM_HISTORY.shortCallWindowMs / 1000,
  /** Idle expiry of a caller's marks. */
  marksTtlSeconds: 90 * 24 * 3600,
} as const;

/** The Redis commands the history needs; ioredis' single client and Cluster client both fit. */
export interface CallerHistoryRedis {
  zadd(key: string, ...args: (string | number)[]): Promise<unknown>;
  zcount(key: string, min: string | number, max: string | number): Promise<number>;
  zremrangebyrank(key: string, start: number, stop: number): Promise<unknown>;
  expire(key: string, seconds: number): Promise<unknown>;
  hget(key: string, field: string): Promise<string | null>;
  hmget(key: string, ...fields: string[]): Promise<(string | null)[]>;
  hincrby(key: string, field: string, increment: number): Promise<unknown>;
}

/** What one call finds: the partner's list entry for the caller and the caller's history. */
export interface CallerStanding {
  listed: 'block' | 'allow' | null;
  history: CallerHistory;
}

/**
 * A caller's history within one partner (docs/spam.md, Caller history): bounded per-caller sets
 * under the partner's hash tag, so a voice webhook reads them in one round trip of a pipeline and
 * a Cluster keeps them on the partner's node. Replacement notes each call's tracking number when it
 * routes it; management notes it again with the record (calls from the switch never pass the voice
 * webhook), the short calls, and the partner's marks.
 */
export class CallerHistoryStore {
  constructor(
    private readonly redis: CallerHistoryRedis,
    private readonly keyPrefix: string,
  ) {}

  /** Notes the call (its tracking number at `atMs`), then reads what the call is judged by. */
  async noteCall(advId: string, anum: string, bnum: string, atMs: number): Promise<CallerStanding> {
    const keys = partnerKeys(this.keyPrefix, advId);
    const numbers = keys.callerNumbers(anum);
    // One round trip: commands on one connection run in the order sent, so the count below sees
    // this call (and a Cluster sends both to the node of the caller's key).
    const [, listed, recentNumbers, shortCalls, marks] = await Promise.all([
      // GT: a record stored late never moves a number's latest call back in time.
      this.redis.zadd(numbers, 'GT', atMs, bnum),
      this.redis.hget(keys.spamLists, anum),
      this.redis.zcount(numbers, atMs - SPAM_HISTORY.numbersWindowMs, '+inf'),
      // Before this call only: its own shortness is the record's `short_call`.
      this.redis.zcount(keys.callerShortCalls(anum), atMs - SPAM_HISTORY.shortCallWindowMs, `(${atMs}`),
      this.redis.hmget(keys.callerMarks(anum), 'spam', 'not_spam'),
      this.redis.zremrangebyrank(numbers, 0, -CALLER_HISTORY_LIMITS.maxEntries - 1),
      this.redis.expire(numbers, CALLER_HISTORY_LIMITS.callsTtlSeconds),
    ]);
    return {
      listed: listed === 'block' || listed === 'allow' ? listed : null,
      history: {
        shortCalls,
        recentNumbers,
        markedSpam: count(marks[0]),
        markedNotSpam: count(marks[1]),
      },
    };
  }

  /** A short call, counted against the caller's later calls. */
  async noteShortCall(advId: string, anum: string, callId: string, atMs: number): Promise<void> {
    const key = partnerKeys(this.keyPrefix, advId).callerShortCalls(anum);
    await Promise.all([
      this.redis.zadd(key, atMs, callId),
      this.redis.zremrangebyrank(key, 0, -CALLER_HISTORY_LIMITS.maxEntries - 1),
      this.redis.expire(key, CALLER_HISTORY_LIMITS.callsTtlSeconds),
    ]);
  }

  /** A partner's re-mark of one call: from what it was judged (`was`) to what the partner says. */
  async noteMark(
    advId: string,
    anum: string,
    was: 'spam' | 'not_spam' | null,
    now: 'spam' | 'not_spam',
  ): Promise<void> {
    if (was === now) return;
    const key = partnerKeys(this.keyPrefix, advId).callerMarks(anum);
    await Promise.all([
      ...(was === null ? [] : [this.redis.hincrby(key, was, -1)]),
      this.redis.hincrby(key, now, 1),
      this.redis.expire(key, CALLER_HISTORY_LIMITS.marksTtlSeconds),
    ]);
  }
}

function count(raw: string | null | undefined): number {
  const value = Number(raw ?? 0);
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

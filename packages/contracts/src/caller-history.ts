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

/**
 * One call's commands, sent to Redis in one write: every key of a caller carries the partner's hash
 * tag, so on a Cluster they all go to one node (docs/redis-keys.md).
 */
export interface CallerHistoryPipeline {
  zadd(key: string, ...args: (string | number)[]): unknown;
  zcount(key: string, min: string | number, max: string | number): unknown;
  zremrangebyrank(key: string, start: number, stop: number): unknown;
  expire(key: string, seconds: number): unknown;
  hget(key: string, field: string): unknown;
  hmget(key: string, ...fields: string[]): unknown;
  exec(): Promise<Array<[error: Error | null, result: unknown]> | null>;
}

/** The Redis commands the history needs; ioredis' single client and Cluster client both fit. */
export interface CallerHistoryRedis {
  pipeline(): CallerHistoryPipeline;
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
    // One write, applied in order: the counts below see this call.
    const pipeline = this.redis.pipeline();
    // GT: a record stored late never moves a number's latest call back in time.
    pipeline.zadd(numbers, 'GT', atMs, bnum);
    pipeline.hget(keys.spamLists, anum);
    pipeline.zcount(numbers, atMs - SPAM_HISTORY.numbersWindowMs, '+inf');
    // Before this call only: its own shortness is the record's `short_call`.
    pipeline.zcount(keys.callerShortCalls(anum), atMs - SPAM_HISTORY.shortCallWindowMs, `(${atMs}`);
    pipeline.hmget(keys.callerMarks(anum), 'spam', 'not_spam');
    pipeline.zremrangebyrank(numbers, 0, -CALLER_HISTORY_LIMITS.maxEntries - 1);
    pipeline.expire(numbers, CALLER_HISTORY_LIMITS.callsTtlSeconds);
    const [, listed, recentNumbers, shortCalls, marks] = replies(await pipeline.exec()) as [
      unknown,
      string | null,
      number,
      number,
      Array<string | null>,
    ];
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
    const pipeline = this.redis.pipeline();
    pipeline.zadd(key, atMs, callId);
    pipeline.zremrangebyrank(key, 0, -CALLER_HISTORY_LIMITS.maxEntries - 1);
    pipeline.expire(key, CALLER_HISTORY_LIMITS.callsTtlSeconds);
    replies(await pipeline.exec());
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

/** A pipeline's replies in order; the first command that failed fails the whole call. */
function replies(results: Array<[error: Error | null, result: unknown]> | null): unknown[] {
  if (results === null) throw new Error('Redis discarded the pipeline');
  for (const [error] of results) if (error !== null) throw error;
  return results.map(([, result]) => result);
}

function count(raw: string | null | undefined): number {
  const value = Number(raw ?? 0);
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

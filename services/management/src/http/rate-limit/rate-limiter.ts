import { partnerHashTag } from '@trackline/contracts';
import { defineLuaCommand, type RedisConnection } from '@trackline/platform';

/** What a partner may still do in the current window (docs/partner-api.md, Rate limit). */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
  /** Length of the window in seconds. */
  windowSeconds: number;
}

/** Counts a partner's requests; shared by every replica when backed by Redis. */
export interface RateLimiter {
  /** Counts one request of the partner (by advId) against `limit` requests per window. */
  consume(advId: string, limit: number, now: Date): Promise<RateLimitDecision>;
}

/** The fixed window a moment falls in: its number and when it ends, in epoch ms. */
export function rateWindow(now: Date, windowMs: number): { index: number; endsAt: number } {
  const index = Math.floor(now.getTime() / windowMs);
  return { index, endsAt: (index + 1) * windowMs };
}

/** The decision for the `count`-th request of a window (counting from 1). */
export function decide(
  count: number,
  limit: number,
  now: Date,
  endsAt: number,
  windowMs: number,
): RateLimitDecision {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)),
    windowSeconds: Math.round(windowMs / 1000),
  };
}

interface RateLimitScripts {
  rateLimitWindow(key: string, ttlMs: string): Promise<number>;
}

/**
 * A fixed one-minute window per partner in Redis: one INCR (with the expiry on the first request
 * of a window) per request, one round trip, so every replica counts against the same budget. A
 * fixed window lets a client send up to twice the limit across a window boundary; that is the
 * price of one key and one command, and the limit is a guard against a runaway client, not a
 * billing meter.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisConnection & RateLimitScripts;

  constructor(
    redis: RedisConnection,
    private readonly keyPrefix: string,
    private readonly windowMs = 60_000,
  ) {
    this.redis = defineLuaCommand<RateLimitScripts>(redis, __dirname, {
      name: 'rateLimitWindow',
      file: 'rate-limit-window',
      numberOfKeys: 1,
    });
  }

  async consume(advId: string, limit: number, now: Date): Promise<RateLimitDecision> {
    const window = rateWindow(now, this.windowMs);
    const key = `${this.keyPrefix}${partnerHashTag(advId)}:mgmt:rate:${window.index}`;
    // A margin past the window's end, so a replica whose clock runs a little behind still counts
    // into the same key rather than a fresh one.
    const ttlMs = window.endsAt - now.getTime() + 5_000;
    const count = await this.redis.rateLimitWindow(key, String(ttlMs));
    return decide(Number(count), limit, now, window.endsAt, this.windowMs);
  }
}

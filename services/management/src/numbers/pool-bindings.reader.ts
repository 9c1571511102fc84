import { partnerKeys } from '@trackline/contracts';

/**
 * Which of a partner's pool numbers are bound right now. Bindings are the replacement service's
 * state in Redis; management only reads them, through the shared key builders.
 */
export interface PoolBindingsReader {
  boundNumbers(advId: string, now: Date): Promise<string[]>;
}

/** The one command the reader needs (ioredis Redis and Cluster both have it). */
export interface PoolScoresRedis {
  zrangebyscore(key: string, min: string, max: string): Promise<string[]>;
}

/**
 * The pool sorted set's score is the instant a number is free from (contracts' PartnerKeys.pool):
 * a score after `now` means a live binding — its session, or the hold-back after it, during which
 * calls still route to it. That is the replacement service's own test for a live binding.
 */
export class RedisPoolBindingsReader implements PoolBindingsReader {
  constructor(
    private readonly redis: PoolScoresRedis,
    private readonly keyPrefix: string,
  ) {}

  boundNumbers(advId: string, now: Date): Promise<string[]> {
    return this.redis.zrangebyscore(partnerKeys(this.keyPrefix, advId).pool, `(${now.getTime()}`, '+inf');
  }
}

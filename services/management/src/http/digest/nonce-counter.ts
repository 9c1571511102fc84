import { defineLuaCommand, type RedisConnection } from '@trackline/platform';

/** Remembers the highest `nc` used with each nonce, shared by every replica. */
export interface NonceCounter {
  /** True when `nc` is higher than any count used with this nonce before; records it. */
  advance(nonce: string, nc: number, ttlMs: number): Promise<boolean>;
}

interface DigestScripts {
  digestNonceCount(key: string, nc: string, ttlMs: string): Promise<number>;
}

export class RedisNonceCounter implements NonceCounter {
  private readonly redis: RedisConnection & DigestScripts;

  constructor(
    redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {
    this.redis = defineLuaCommand<DigestScripts>(redis, __dirname, {
      name: 'digestNonceCount',
      file: 'digest-nonce-count',
      numberOfKeys: 1,
    });
  }

  async advance(nonce: string, nc: number, ttlMs: number): Promise<boolean> {
    const key = `${this.keyPrefix}mgmt:digest-nc:${nonce}`;
    const accepted = await this.redis.digestNonceCount(
      key,
      String(nc),
      String(Math.max(1, Math.ceil(ttlMs))),
    );
    return accepted === 1;
  }
}

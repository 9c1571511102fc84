import type { RedisConnection } from '@trackline/platform';
import { readLuaScript } from './lua-script';

/** Remembers the highest `nc` used with each nonce, shared by every replica. */
export interface NonceCounter {
  /** True when `nc` is higher than any count used with this nonce before; records it. */
  advance(nonce: string, nc: number, ttlMs: number): Promise<boolean>;
}

type WithScript = RedisConnection & {
  digestNonceCount(key: string, nc: string, ttlMs: string): Promise<number>;
};

export class RedisNonceCounter implements NonceCounter {
  private readonly redis: WithScript;

  constructor(
    redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {
    const client = redis as WithScript;
    if (typeof (client as Partial<WithScript>).digestNonceCount !== 'function') {
      redis.defineCommand('digestNonceCount', { numberOfKeys: 1, lua: readLuaScript('digest-nonce-count') });
    }
    this.redis = client;
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

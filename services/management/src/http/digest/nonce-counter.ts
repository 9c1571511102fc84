import { randomBytes } from 'node:crypto';
import { digestKeys, type DigestKeys } from '@trackline/contracts';
import { defineLuaCommand, type RedisConnection } from '@trackline/platform';
import { EPOCH_HEX, NO_EPOCH } from './digest-nonce';

export type CountOutcome = 'accepted' | 'replayed' | 'stale-epoch';

/**
 * Remembers the highest `nc` used with each nonce, shared by every replica, under a Redis epoch
 * (docs/redis-keys.md, Digest nonces): a random id kept in Redis beside the counters. When Redis
 * loses its data the epoch goes with the counters and a new one is made, so every nonce issued
 * before names an epoch that is gone and is answered stale: a replayed header cannot count from
 * zero again.
 */
export interface NonceCounter {
  /** The epoch new nonces name, as last seen in Redis; NO_EPOCH before Redis answered once. */
  currentEpoch(): string;
  /** Reads the epoch (creating it when missing); run on every Redis (re)connection. */
  refreshEpoch(): Promise<string>;
  /** Accepts `nc` when `epoch` is current and `nc` is higher than any count used with this nonce; records it. */
  advance(nonce: string, epoch: string, nc: number, ttlMs: number): Promise<CountOutcome>;
}

interface DigestScripts {
  digestNonceCount(
    epochKey: string,
    counterKey: string,
    epoch: string,
    nc: string,
    ttlMs: string,
    newEpoch: string,
  ): Promise<[number, string]>;
  digestEpoch(epochKey: string, newEpoch: string): Promise<string>;
}

const OUTCOMES = new Map<number, CountOutcome>([
  [1, 'accepted'],
  [0, 'replayed'],
  [-1, 'stale-epoch'],
]);

export class RedisNonceCounter implements NonceCounter {
  private readonly redis: RedisConnection & DigestScripts;
  private readonly keys: DigestKeys;
  // Kept from every answer of Redis, so issuing a nonce (a 401) costs no round trip.
  private epoch = NO_EPOCH;

  constructor(redis: RedisConnection, keyPrefix: string) {
    defineLuaCommand(redis, __dirname, { name: 'digestEpoch', file: 'digest-epoch', numberOfKeys: 1 });
    this.redis = defineLuaCommand<DigestScripts>(redis, __dirname, {
      name: 'digestNonceCount',
      file: 'digest-nonce-count',
      numberOfKeys: 2,
    });
    this.keys = digestKeys(keyPrefix);
    // A Redis that came back empty gets its new epoch now, so the challenges issued from then on
    // name it; until it answers, nonces name the old one and are answered stale once (a retry).
    const refresh = (): void => void this.refreshEpoch().catch(() => undefined);
    redis.on('ready', refresh);
    if (redis.status === 'ready') refresh();
  }

  currentEpoch(): string {
    return this.epoch;
  }

  async refreshEpoch(): Promise<string> {
    this.epoch = await this.redis.digestEpoch(this.keys.epoch, newEpoch());
    return this.epoch;
  }

  async advance(nonce: string, epoch: string, nc: number, ttlMs: number): Promise<CountOutcome> {
    const [code, current] = await this.redis.digestNonceCount(
      this.keys.epoch,
      this.keys.nonceCount(nonce),
      epoch,
      String(nc),
      String(Math.max(1, Math.ceil(ttlMs))),
      newEpoch(),
    );
    this.epoch = current;
    return OUTCOMES.get(code) ?? 'replayed';
  }
}

function newEpoch(): string {
  // Never NO_EPOCH, which nonces issued without a known epoch carry.
  for (;;) {
    const epoch = randomBytes(EPOCH_HEX / 2).toString('hex');
    if (epoch !== NO_EPOCH) return epoch;
  }
}

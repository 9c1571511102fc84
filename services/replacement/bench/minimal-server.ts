import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { partnerKeys, type PartnerConfig } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { createBaselineServer } from './baseline-http';

/**
 * The smallest allocation a tracking-number request could run: a sticky number per session, taken
 * least recently used from the pool. Three commands for an existing session (HGET, ZADD, PEXPIRE),
 * five for a new one (ZRANGE and HSET as well). No hold-back, no recycling rule, no binding, no
 * customer event: the floor the whole-system bench measures the service against (docs/benchmarks.md).
 */
const MINIMAL_ALLOCATION = `
local number = redis.call('HGET', KEYS[1], 'n')
if not number then
  number = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not number then return false end
  redis.call('HSET', KEYS[1], 'n', number)
end
redis.call('ZADD', KEYS[2], ARGV[1], number)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return number
`;

interface MinimalScripts {
  minimalAllocate(session: string, pool: string, score: number, ttlMs: number): Promise<string | null>;
}

export interface MinimalAllocator {
  /** The session's number (a new session when `sessionId` is null); null when the pool is empty. */
  allocate(partner: PartnerConfig, sessionId: string, now: number): Promise<string | null>;
}

export function minimalAllocator(redis: RedisConnection, keyPrefix: string): MinimalAllocator {
  const client = redis as RedisConnection & Partial<MinimalScripts>;
  if (typeof client.minimalAllocate !== 'function') {
    redis.defineCommand('minimalAllocate', { numberOfKeys: 2, lua: MINIMAL_ALLOCATION });
  }
  const scripts = client as RedisConnection & MinimalScripts;
  return {
    allocate: (partner, sessionId, now) => {
      const keys = partnerKeys(keyPrefix, partner.advId);
      const ttlMs = partner.sessionTtlSeconds * 1000;
      const score = now + ttlMs + partner.holdBackSeconds * 1000;
      return scripts.minimalAllocate(keys.webSession(sessionId), keys.pool, score, ttlMs);
    },
  };
}

/**
 * The minimal bare server: the baseline HTTP part (baseline-http.ts), the minimal allocation above,
 * the seed's success body — nothing else.
 */
export function createMinimalServer(redis: RedisConnection, keyPrefix: string): Server {
  const allocator = minimalAllocator(redis, keyPrefix);
  return createBaselineServer(redis, keyPrefix, async (partner, body) => {
    const sessionId =
      typeof body.sessionId === 'string' && body.sessionId !== '' ? body.sessionId : randomUUID();
    const onPage = String(body.numbers).trim();
    const number = await allocator.allocate(partner, sessionId, Date.now());
    if (number === null) return { success: false, error: 'No number pool configured' };
    return {
      success: true,
      numbers: [{ number_on_page: onPage, replace_with: { e164: number, local: number } }],
      sessionId,
    };
  });
}
